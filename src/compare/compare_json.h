/* --compare: JSON inputs as the CSV lines compare_csv.c reads (compare_json.c). */
#ifndef FB_COMPARE_JSON_H
#define FB_COMPARE_JSON_H

#include "saved/saved_input.h"

extern const struct ai_json_source compare_json_source;
#endif
