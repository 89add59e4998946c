/* --compare: the reader of JSON inputs (compare_json.c), into compare_table.h's tables. */
#ifndef FB_COMPARE_JSON_H
#define FB_COMPARE_JSON_H

#include "saved/saved_input.h"
#include "compare/compare_table.h"

extern const struct ai_json_source compare_json_source;
#endif
