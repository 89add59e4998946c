/* The command lines of saved output (saved_command.c). */
#ifndef FB_SAVED_COMMAND_H
#define FB_SAVED_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "saved/saved_line.h"

/*
 * so_command: what a command line, script header or our own header says;
 * false when tok[] is none of them.
 */
bool so_command(char **tok, size_t n, struct so_line *o);
/* Does a flashbench command line start at tok[i] ("./flashbench" and an option)? */
bool so_command_at(char **tok, size_t n, size_t i);
#endif
