/*
 * The name a user most likely meant: "--allign" is one edit from
 * "--align". For the suggestion in "unrecognized option" messages.
 */
#ifndef FB_NEAREST_H
#define FB_NEAREST_H

#include <stddef.h>

/* Edits (insert, delete, change, swap two neighbours) from the n bytes at
 * a to the string b; SIZE_MAX when either is 63 bytes or longer. */
size_t nearest_edits(const char *a, size_t n, const char *b);

/*
 * Of the count names, the one nearest the n bytes at typed: at most two
 * edits away and fewer than half its length (so "--ab" guesses nothing),
 * the first of the nearest; NULL if none is that near.
 */
const char *nearest_name(const char *typed, size_t n, const char *const *names, size_t count);

#endif
