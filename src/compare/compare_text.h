/* --compare: the reader of text inputs (compare_text.c), into compare_table.h's tables. */
#ifndef FB_COMPARE_TEXT_H
#define FB_COMPARE_TEXT_H

#include "compare/compare_table.h"

/* The next run of the file, as an input of its own (max reached: the last). */
struct ci_input *ci_next_run(struct ci_reader *rd);
/* One line of a text input, through the saved-output reader. */
void ci_text_line(struct ci_reader *rd, const char *line);
/* After the last line: a readahead table's "==>" as its verdict, when none is said. */
void ci_text_end(struct ci_reader *rd);
#endif
