/*
 * libFuzzer target for the whole command line: the input, split at
 * newlines, is argv[1..]; main.c (built with -Dmain=fb_main) runs in a
 * forked child, because it exits on a usage error.
 *
 * The child can reach nothing worth keeping: target_open() below opens
 * only simulated cards (never a file or a block device), the child is
 * chroot'ed into an empty scratch directory (so --out, --backup and
 * image= files land there, and are removed after each run), its files
 * are capped by RLIMIT_FSIZE and its run time by an alarm. Without root
 * (no chroot) the command line is not run at all.
 *
 * A crash is a signal other than the alarm, or a sanitizer report (the
 * child exits 99): the parent then prints what the child said and aborts,
 * so that libFuzzer keeps the input.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "target.h"

#define MAX_ARGS 32
#define CRASH_STATUS 99

int fb_main(int argc, char **argv);

static char root[] = "/tmp/fbfuzz.XXXXXX";
static int root_ok;

/* Only simulated cards while fuzzing: never a file or a real device. */
int target_open(const char *path, int flags, struct target **out, char *err, size_t errlen)
{
	*out = NULL;
	if (strncmp(path, "sim:", 4) == 0)
		return target_sim_open(path + 4, flags, out, err, errlen);
	snprintf(err, errlen, "%s: only sim: targets while fuzzing", path);
	return -ENOENT;
}

void target_close(struct target *t)
{
	if (t)
		t->ops->close(t);
}

static void remove_root(void)
{
	rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	root_ok = mkdtemp(root) != NULL && geteuid() == 0;
	if (!root_ok)
		fprintf(stderr, "fuzz_args: needs root (chroot) for a scratch directory; "
			"the command line is not run\n");
	atexit(remove_root);
	return 0;
}

/* Empty the scratch directory (flashbench creates files, never directories). */
static void clean_root(void)
{
	char path[sizeof(root) + 300];
	struct dirent *e;
	DIR *d = opendir(root);

	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", root, e->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
}

static void on_exit_status(int status, void *arg)
{
	(void)arg;
	_exit(status);	/* before libFuzzer's exit hook, which would call it a crash */
}

static void on_sanitizer_death(void)
{
	_exit(CRASH_STATUS);
}

static void child(int argc, char **argv)
{
	struct rlimit fsize = { 16 << 20, 16 << 20 };
	int log = open(".fuzz_args.log", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int null = open("/dev/null", O_WRONLY);

	if (log < 0 || null < 0 || chroot(root) < 0 || chdir("/") < 0)
		_exit(0);
	dup2(null, 1);
	dup2(log, 2);
	__sanitizer_set_death_callback(on_sanitizer_death);
	on_exit(on_exit_status, NULL);
	setrlimit(RLIMIT_FSIZE, &fsize);
	signal(SIGXFSZ, SIG_IGN);	/* a file too large fails with EFBIG instead */
	alarm(1);
	optind = 0;	/* a fresh getopt */
	_exit(fb_main(argc, argv));
}

static void report_crash(int status)
{
	char buf[4096];
	FILE *f = fopen(".fuzz_args.log", "r");
	size_t n;

	fprintf(stderr, "fuzz_args: the command line crashed (status %#x); it said:\n", status);
	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stderr);
	if (f)
		fclose(f);
	abort();
}

static void run(int argc, char **argv)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(argc, argv);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return;
	clean_root();
	if (WIFSIGNALED(status) && WTERMSIG(status) != SIGALRM && WTERMSIG(status) != SIGKILL)
		report_crash(status);
	if (WIFEXITED(status) && WEXITSTATUS(status) == CRASH_STATUS)
		report_crash(status);
	unlink(".fuzz_args.log");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *argv[MAX_ARGS + 2], *save = NULL;
	int argc = 0;

	if (!root_ok || size > 4096)
		return 0;
	text = calloc(1, size + 1);
	memcpy(text, data, size);
	argv[argc++] = "flashbench";
	for (char *a = strtok_r(text, "\n", &save); a && argc <= MAX_ARGS; a = strtok_r(NULL, "\n", &save))
		argv[argc++] = a;
	argv[argc] = NULL;
	run(argc, argv);
	free(text);
	return 0;
}
