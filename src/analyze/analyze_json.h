/* --analyze of a saved --format=json run: see analyze_json.c. */
#ifndef FB_ANALYZE_JSON_H
#define FB_ANALYZE_JSON_H

#include "saved/saved_input.h"

extern const struct ai_json_source analyze_json_source;

#endif
