/*
 * The queued I/O API itself: the choice QIO_AUTO makes and the reasons
 * it gives when io_uring or AIO is missing (made missing with a seccomp
 * filter in a child process), the fallback when io_uring registration
 * is refused, requests the kernel refuses to take (each completes with
 * the error), argument checks, a full queue, polling with min = 0,
 * buffers outside the registered ones, a wait a signal interrupts, a
 * wait a stop flag set before it prevents (qio_watch_stop), and
 * closing with requests in flight. No timing is asserted.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "qio_fixture.h"
#include "unit.h"

static const enum qio_kind engines[] = { QIO_SYNC, QIO_AIO, QIO_URING };

/* A set-up step the rest of the function needs: on failure, to out. */
#define REQUIRE(cond) do { \
	if (cond) { unit_passed++; } \
	else { unit_failed++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); goto out; } \
} while (0)

static bool has(const char *s, const char *sub)
{
	if (strstr(s, sub))
		return true;
	printf("'%s' lacks '%s'\n", s, sub);
	return false;
}

/* Make the listed system calls fail with err in this process. */
static int deny(const long *nr, unsigned n, int err)
{
	struct sock_filter f[2 + 2 * 4];
	unsigned k = 0;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (unsigned i = 0; i < n && i < 4; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (uint32_t)err);
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)k, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0 ? -errno : 0;
}

/* Run fn(p) in a child with the system calls nr denied; its CHECKs count here. */
static void in_child(const long *nr, unsigned n, int err, void (*fn)(const struct place *),
		     const struct place *p)
{
	int pfd[2], status = 0, counts[2] = { 0, 0 };
	pid_t pid;

	fflush(stdout);
	if (pipe(pfd) < 0 || (pid = fork()) < 0) {
		CHECK(!"fork");
		return;
	}
	if (pid == 0) {
		close(pfd[0]);
		unit_passed = unit_failed = 0;
		if (deny(nr, n, err) < 0)
			printf("FAIL seccomp filter: %s\n", strerror(errno)), unit_failed++;
		else
			fn(p);
		counts[0] = unit_passed;
		counts[1] = unit_failed;
		fflush(stdout);
		_exit(write(pfd[1], counts, sizeof counts) == sizeof counts ? 0 : 1);
	}
	close(pfd[1]);
	CHECK(read(pfd[0], counts, sizeof counts) == sizeof counts);
	close(pfd[0]);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	unit_passed += counts[0];
	unit_failed += counts[1];
}

/* Write 8 blocks at depth 8 and read them back through q: all byte-exact. */
static bool round_trip(struct qio *q, uint8_t *buf, uint64_t seed)
{
	struct qio_done d[8];
	int n = 0;
	bool ok = true;

	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < 8; i++) {
			uint8_t *b = buf + i * 4096;
			if (pass == 0)
				fx_fill(b, 4096, i * 8192, seed);
			else
				memset(b, 0, 4096);
			ok &= qio_submit(q, pass == 0, b, 4096, i * 8192, i) == 0;
		}
		for (n = 0; n < 8;) {
			int got = qio_reap(q, 8 - (unsigned)n, d + n, 8 - (unsigned)n);
			if (got <= 0)
				return false;
			n += got;
		}
		for (int i = 0; i < 8; i++)
			ok &= d[i].tag < 8 && d[i].res == 4096 &&
			      (pass == 0 || fx_same(buf + d[i].tag * 4096, 4096, d[i].tag * 8192, seed));
	}
	return ok;
}

static void without_uring(const struct place *p)
{
	struct qio *q = NULL;
	char err[256];
	uint8_t *buf = fx_alloc(8 * 4096);

	CHECK(qio_open(QIO_URING, p->fd, 8, &q, err, sizeof err) == -ENOSYS);
	CHECK(has(err, "io_uring_setup: Function not implemented"));
	REQUIRE(qio_open(QIO_AUTO, p->fd, 8, &q, err, sizeof err) == 0);
	CHECK(qio_kind(q) == QIO_AIO);
	CHECK(has(qio_describe(q), "Linux AIO, depth 8 (io_uring not used: io_uring_setup: Function not implemented)"));
	CHECK(buf && round_trip(q, buf, 1));
out:
	qio_close(q);
	free(buf);
}

static void without_uring_and_aio(const struct place *p)
{
	struct qio *q = NULL;
	char err[256];
	uint8_t *buf = fx_alloc(8 * 4096);

	CHECK(qio_open(QIO_AIO, p->fd, 8, &q, err, sizeof err) == -ENOSYS);
	CHECK(has(err, "io_setup: Function not implemented"));
	REQUIRE(qio_open(QIO_AUTO, p->fd, 8, &q, err, sizeof err) == 0);
	CHECK(qio_kind(q) == QIO_SYNC);
	CHECK(has(qio_describe(q), "synchronous pread/pwrite, depth 8 run one at a time (io_uring not used: "
		  "io_uring_setup: Function not implemented; Linux AIO not used: io_setup: Function not implemented)"));
	CHECK(buf && round_trip(q, buf, 2));
out:
	qio_close(q);
	free(buf);
}

/* io_uring_register refused: plain file, plain buffers, plain ring fd. */
static void without_registration(const struct place *p)
{
	struct qio *q = NULL;
	char err[256];
	uint8_t *buf = fx_alloc(8 * 4096);
	struct iovec iov = { buf, 8 * 4096 };

	REQUIRE(qio_open(QIO_URING, p->fd, 8, &q, err, sizeof err) == 0);
	CHECK(qio_register_buffers(q, &iov, 1) == -EPERM);
	CHECK(has(qio_describe(q), "file not registered: io_uring_register: Operation not permitted"));
	CHECK(has(qio_describe(q), "buffers not registered: io_uring_register: Operation not permitted"));
	CHECK(has(qio_describe(q), "ring not registered: io_uring_register: Operation not permitted"));
	CHECK(buf && round_trip(q, buf, 3));
out:
	qio_close(q);
	free(buf);
}

/* Three reads the kernel refuses to take: each comes back with the error. */
static void refused(const struct place *p, enum qio_kind k, int err)
{
	uint8_t *buf = fx_alloc(3 * 4096);
	struct qio_done d[4];
	unsigned tags = 0;
	struct qio *q = NULL;
	char why[256];
	int n;

	REQUIRE(buf && qio_open(k, p->fd, 4, &q, why, sizeof why) == 0);
	for (unsigned i = 0; i < 3; i++)
		CHECK(qio_submit(q, false, buf + i * 4096, 4096, i * 4096, i) == 0);
	n = qio_reap(q, 3, d, 4);
	CHECK(n == 3 && qio_outstanding(q) == 0);
	for (int i = 0; i < n; i++) {
		CHECK(d[i].res == -err && d[i].len == 4096 && d[i].off == d[i].tag * 4096);
		tags |= 1u << d[i].tag;
	}
	CHECK(tags == 7);
out:
	qio_close(q);
	free(buf);
}

static void uring_enter_refused(const struct place *p)
{
	refused(p, QIO_URING, ENOMEM);
}

static void io_submit_refused(const struct place *p)
{
	refused(p, QIO_AIO, EAGAIN);
}

static void fallbacks(const struct place *p)
{
	const long setup[] = { __NR_io_uring_setup, __NR_io_setup };
	const long reg[] = { __NR_io_uring_register };
	char why[256];

	in_child(setup, 1, ENOSYS, without_uring, p);
	in_child(setup, 2, ENOSYS, without_uring_and_aio, p);
	const long enter[] = { __NR_io_uring_enter }, submit[] = { __NR_io_submit };
	if (fx_engine_works(QIO_URING, p->fd, why, sizeof why)) {
		in_child(reg, 1, EPERM, without_registration, p);
		in_child(enter, 1, ENOMEM, uring_enter_refused, p);
	}
	if (fx_engine_works(QIO_AIO, p->fd, why, sizeof why))
		in_child(submit, 1, EAGAIN, io_submit_refused, p);
}

static void auto_choice(const struct place *p)
{
	enum qio_kind want = QIO_SYNC;
	const char *prefix = "synchronous";
	struct qio *q = NULL;
	char why[256];

	if (fx_engine_works(QIO_URING, p->fd, why, sizeof why))
		want = QIO_URING, prefix = "io_uring, depth 4: ";
	else if (fx_engine_works(QIO_AIO, p->fd, why, sizeof why))
		want = QIO_AIO, prefix = "Linux AIO, depth 4 (io_uring not used: ";
	REQUIRE(qio_open(QIO_AUTO, p->fd, 4, &q, why, sizeof why) == 0);
	CHECK(qio_kind(q) == want && qio_depth(q) == 4);
	CHECK(strncmp(qio_describe(q), prefix, strlen(prefix)) == 0);
out:
	qio_close(q);
}

static void arguments(const struct place *p)
{
	enum qio_kind k = QIO_AUTO;
	struct qio *q = (struct qio *)&k;
	char err[256];

	CHECK(qio_open(QIO_SYNC, p->fd, 0, &q, err, sizeof err) == -EINVAL && q == NULL);
	CHECK(has(err, "queue depth 0: must be 1 to 4096"));
	CHECK(qio_open(QIO_AIO, p->fd, QIO_MAX_DEPTH + 1, &q, err, sizeof err) == -EINVAL);
	CHECK(qio_open((enum qio_kind)9, p->fd, 1, &q, err, sizeof err) == -EINVAL);
	CHECK(has(err, "unknown I/O engine 9"));
	CHECK(qio_kind_parse("uring", &k) == 0 && k == QIO_URING);
	CHECK(qio_kind_parse("aio", &k) == 0 && k == QIO_AIO);
	CHECK(qio_kind_parse("sync", &k) == 0 && k == QIO_SYNC);
	CHECK(qio_kind_parse("auto", &k) == 0 && k == QIO_AUTO);
	CHECK(qio_kind_parse("io_uring", &k) == -EINVAL && qio_kind_parse("", &k) == -EINVAL);
	CHECK_STR(qio_kind_name(QIO_URING), "uring");
	qio_close(NULL);
}

/* Lengths, a full queue, min above what is outstanding, min above max. */
static void queue_limits(const struct place *p, enum qio_kind k)
{
	uint8_t *buf = fx_alloc(4 * 4096);
	struct qio_done d[4];
	struct qio *q = NULL;
	char err[256];

	REQUIRE(buf && qio_open(k, p->fd, 4, &q, err, sizeof err) == 0);
	CHECK(qio_submit(q, false, buf, 0, 0, 0) == -EINVAL);
	CHECK(qio_submit(q, false, buf, (size_t)QIO_MAX_LEN + 1, 0, 0) == -EINVAL);
	CHECK(qio_reap(q, 1, d, 4) == 0);	/* nothing outstanding: no wait */
	for (unsigned i = 0; i < 4; i++)
		CHECK(qio_submit(q, false, buf + i * 4096, 4096, i * 4096, i) == 0);
	CHECK(qio_submit(q, false, buf, 4096, 0, 9) == -EBUSY);
	CHECK(qio_outstanding(q) == 4);
	CHECK(qio_reap(q, 3, d, 2) == 2);	/* min is capped at max */
	CHECK(qio_outstanding(q) == 2);
	CHECK(qio_reap(q, 9, d + 2, 4) == 2);	/* min is capped at outstanding */
	CHECK(qio_outstanding(q) == 0);
	unsigned tags = 0;
	for (int i = 0; i < 4; i++)
		tags |= 1u << d[i].tag;
	CHECK(tags == 0xf);
out:
	qio_close(q);
	free(buf);
}

/* min = 0 never waits, yet repeated polls collect every request. */
static void polling(const struct place *p, enum qio_kind k)
{
	uint8_t *buf = fx_alloc(32 * 4096);
	struct qio_done d[32];
	unsigned got = 0, tags = 0;
	struct qio *q = NULL;
	char err[256];

	REQUIRE(buf && qio_open(k, p->fd, 32, &q, err, sizeof err) == 0);
	for (unsigned i = 0; i < 32; i++)
		qio_submit(q, false, buf + i * 4096, 4096, i * 4096, i);
	CHECK(qio_flush(q) == 0);
	for (long polls = 0; got < 32 && polls < 10000000; polls++) {
		int n = qio_reap(q, 0, d + got, 32 - got);
		if (n < 0)
			break;
		got += (unsigned)n;
	}
	for (unsigned i = 0; i < got; i++)
		tags ^= 1u << d[i].tag;
	CHECK(got == 32 && tags == 0xffffffffu && qio_outstanding(q) == 0);
out:
	qio_close(q);
	free(buf);
}

/* A request not inside the registered buffer (partly or wholly) still works. */
static void unregistered_buffers(const struct place *p)
{
	uint8_t *reg = fx_alloc(2 * 4096), *other = fx_alloc(4096);
	struct iovec iov = { reg, 4096 };
	struct qio_done d[2];
	struct qio *q = NULL;
	char err[256];

	REQUIRE(reg && other && qio_open(QIO_URING, p->fd, 2, &q, err, sizeof err) == 0);
	fx_fill(other, 4096, 0, 77);
	fx_fill(reg, 8192, 4096, 77);	/* 4 KiB inside, 4 KiB past the end */
	CHECK(qio_register_buffers(q, &iov, 1) == 0 || has(qio_describe(q), "buffers not registered"));
	CHECK(qio_register_buffers(q, &iov, QIO_MAX_BUFFERS + 1) == -EINVAL);
	qio_submit(q, true, other, 4096, 0, 0);
	qio_submit(q, true, reg, 8192, 4096, 1);
	CHECK(qio_register_buffers(q, &iov, 1) == -EBUSY);
	CHECK(qio_reap(q, 2, d, 2) == 2 && d[0].res + d[1].res == 4096 + 8192);
	memset(other, 0, 4096);
	memset(reg, 0, 8192);
	qio_submit(q, false, other, 4096, 0, 0);
	qio_submit(q, false, reg, 8192, 4096, 1);
	CHECK(qio_reap(q, 2, d, 2) == 2 && d[0].res + d[1].res == 4096 + 8192);
	CHECK(fx_same(other, 4096, 0, 77) && fx_same(reg, 8192, 4096, 77));
	CHECK(qio_register_buffers(q, NULL, 0) == 0 && has(qio_describe(q), "buffers not registered"));
out:
	qio_close(q);
	free(reg);
	free(other);
}

/* Close with requests in flight and with requests never flushed. */
static void closing(const struct place *p, enum qio_kind k)
{
	uint8_t *buf = fx_alloc(32 * 65536);
	struct qio *q = NULL;
	char err[256];

	REQUIRE(buf && qio_open(k, p->fd, 32, &q, err, sizeof err) == 0);
	for (unsigned i = 0; i < 32; i++)
		qio_submit(q, false, buf + i * 65536, 65536, i * 65536, i);
	CHECK(qio_flush(q) == 0);
	qio_close(q);		/* waits for the 32 reads */
	REQUIRE(qio_open(k, p->fd, 32, &q, err, sizeof err) == 0);
	for (unsigned i = 0; i < 32; i++)
		qio_submit(q, false, buf + i * 65536, 65536, i * 65536, i);
out:
	qio_close(q);		/* never submitted */
	CHECK(pread(p->fd, buf, 4096, 0) == 4096);	/* qio_close() left the fd open */
	free(buf);
}

/* A closed fd: the engines still open, every request fails with EBADF. */
static void closed_fd(enum qio_kind k)
{
	uint8_t *buf = fx_alloc(4096);
	struct qio_done d[2];
	struct qio *q = NULL;
	char err[256];
	int fd = 999;	/* a number that names no file (not one just closed: */
			/* io_uring_setup would reuse it for the ring) */
	REQUIRE(fcntl(fd, F_GETFD) < 0 && errno == EBADF);
	REQUIRE(buf && qio_open(k, fd, 2, &q, err, sizeof err) == 0);
	if (k == QIO_URING)
		CHECK(has(qio_describe(q), "file not registered: io_uring_register: Bad file descriptor"));
	qio_submit(q, false, buf, 4096, 0, 1);
	qio_submit(q, true, buf, 4096, 0, 2);
	int n = qio_reap(q, 2, d, 2);
	CHECK(n == 2 && d[0].res == -EBADF && d[1].res == -EBADF);
	CHECK(d[0].tag + d[1].tag == 3);
out:
	qio_close(q);
	free(buf);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * A signal during the wait (here: a read of an empty pipe) ends qio_reap()
 * with -EINTR at the first signal, the request still outstanding; it
 * completes later. The timer repeats (200 ms), so that a signal which came
 * before the wait began cannot leave the test hanging.
 */
static void interrupted_wait(void)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval on = { { 0, 200000 }, { 0, 200000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct qio_done d[2];
	struct qio *q = NULL;
	char err[256], buf[64];
	int p[2] = { -1, -1 }, n;

	pid_t watchdog;

	if (getenv("QIO_TEST_NO_SIGNALS")) {
		printf("SKIP interrupted wait: QIO_TEST_NO_SIGNALS (valgrind holds signals during io_uring_enter)\n");
		return;
	}
	REQUIRE(pipe(p) == 0 && sigaction(SIGALRM, &sa, &old) == 0);
	REQUIRE(qio_open(QIO_URING, p[0], 2, &q, err, sizeof err) == 0);
	CHECK(qio_submit(q, false, buf, sizeof buf, 0, 7) == 0);
	fflush(stdout);
	watchdog = fork();	/* ends a wait no signal ends: a failure, not a hang */
	if (watchdog == 0) {
		sleep(5);
		_exit(write(p[1], "late", 4) == 4 ? 0 : 1);
	}
	alarms = 0;
	setitimer(ITIMER_REAL, &on, NULL);
	n = qio_reap(q, 1, d, 2);
	setitimer(ITIMER_REAL, &off, NULL);
	if (watchdog > 0) {
		kill(watchdog, SIGKILL);
		waitpid(watchdog, NULL, 0);
	}
	CHECK(n == -EINTR && qio_outstanding(q) == 1 && alarms == 1);
	CHECK(write(p[1], "hello", 5) == 5);
	n = qio_reap(q, 1, d, 2);
	CHECK(n == 1 && d[0].tag == 7 && d[0].res == 5 && qio_outstanding(q) == 0);
	sigaction(SIGALRM, &old, NULL);
out:
	qio_close(q);
	close(p[0]);
	close(p[1]);
}

static volatile sig_atomic_t stop_flag;

/*
 * A stop signal taken before the wait (during io_uring's poll, say): its
 * handler has set the watched flag, so qio_reap() must not go to sleep
 * for a completion no signal will cut short. The pipe stays empty; a
 * watchdog writes to it after 5 s, so that a wait that sleeps fails
 * instead of hanging. Unwatched (no qio_watch_stop), the flag is ignored.
 */
static void stop_before_wait(void)
{
	struct qio_done d[2];
	struct qio *q = NULL;
	char err[256], buf[64];
	int p[2] = { -1, -1 }, n;
	pid_t watchdog;

	REQUIRE(pipe(p) == 0);
	REQUIRE(qio_open(QIO_URING, p[0], 2, &q, err, sizeof err) == 0);
	qio_watch_stop(q, &stop_flag);
	CHECK(qio_submit(q, false, buf, sizeof buf, 0, 9) == 0);
	fflush(stdout);
	watchdog = fork();
	REQUIRE(watchdog >= 0);
	if (watchdog == 0) {
		sleep(5);
		_exit(write(p[1], "late", 4) == 4 ? 0 : 1);
	}
	stop_flag = SIGINT;
	n = qio_reap(q, 1, d, 2);
	kill(watchdog, SIGKILL);
	waitpid(watchdog, NULL, 0);
	CHECK(n == -EINTR && qio_outstanding(q) == 1);
	qio_watch_stop(q, NULL);	/* set, but no longer watched: the reap waits */
	CHECK(write(p[1], "hello", 5) == 5);
	n = qio_reap(q, 1, d, 2);
	CHECK(n == 1 && d[0].tag == 9 && d[0].res == 5 && qio_outstanding(q) == 0);
out:
	stop_flag = 0;
	qio_close(q);
	close(p[0]);
	close(p[1]);
}

/*
 * The same with a request the device serves at once, for each engine
 * that waits in the kernel: with the flag set, the reap that would wait
 * returns -EINTR, the request still outstanding; cleared, it is reaped.
 */
static void stop_before_wait_file(const struct place *p, enum qio_kind k)
{
	uint8_t *buf = fx_alloc(4096);
	struct qio_done d[1];
	struct qio *q = NULL;
	char err[256];
	int n;

	REQUIRE(buf && qio_open(k, p->fd, 1, &q, err, sizeof err) == 0);
	qio_watch_stop(q, &stop_flag);
	CHECK(qio_submit(q, false, buf, 4096, 0, 5) == 0);
	stop_flag = SIGTERM;
	n = qio_reap(q, 1, d, 1);
	stop_flag = 0;
	CHECK(n == -EINTR && qio_outstanding(q) == 1);
	n = qio_reap(q, 1, d, 1);
	CHECK(n == 1 && d[0].tag == 5 && d[0].res == 4096 && qio_outstanding(q) == 0);
out:
	stop_flag = 0;
	qio_close(q);
	free(buf);
}

static void not_direct(const struct place *p)
{
	int fd = fx_reopen(p, O_RDONLY);
	struct qio *q = NULL;
	char err[256];

	REQUIRE(fd >= 0 && qio_open(QIO_AIO, fd, 2, &q, err, sizeof err) == 0);
	CHECK(has(qio_describe(q), "the file is not open O_DIRECT: requests may go through the page cache "
		  "and Linux AIO runs them inside io_submit"));
out:
	qio_close(q);
	close(fd);
}

int main(void)
{
	const char *disk = fx_disk_dir();
	struct place p;
	char skip[512], why[256];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fx_open_file(&p, "tmpfs file", "/dev/shm", skip, sizeof skip) < 0 &&
	    (!disk || fx_open_file(&p, "disk file", disk, skip, sizeof skip) < 0)) {
		printf("FAIL no place for the tests: %s\n", skip);
		return 1;
	}
	arguments(&p);
	auto_choice(&p);
	fallbacks(&p);
	for (unsigned e = 0; e < sizeof engines / sizeof engines[0]; e++) {
		if (!fx_engine_works(engines[e], p.fd, why, sizeof why)) {
			printf("SKIP %s engine: %s\n", qio_kind_name(engines[e]), why);
			continue;
		}
		queue_limits(&p, engines[e]);
		polling(&p, engines[e]);
		closing(&p, engines[e]);
		closed_fd(engines[e]);
		if (engines[e] != QIO_SYNC)
			stop_before_wait_file(&p, engines[e]);
	}
	if (fx_engine_works(QIO_URING, p.fd, why, sizeof why)) {
		unregistered_buffers(&p);
		interrupted_wait();
		stop_before_wait();
	}
	not_direct(&p);
	fx_close(&p);
	UNIT_DONE();
}
