/* --compare: the reader of CSV inputs (compare_csv.c), into compare_table.h's tables. */
#ifndef FB_COMPARE_CSV_H
#define FB_COMPARE_CSV_H

#include "compare/compare_table.h"

/* One line of a CSV input (or of a JSON document read as CSV). */
void ci_csv_line(struct ci_input *in, char *line);
#endif
