/* --restore's side of the backup file: reading it and checking it before use. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safety/backup.h"
#include "core/fullio.h"
#include "core/opts.h"
#include "safety/safety.h"

/* Header and tables of a backup file; FB_OK or FB_ESAFETY with a message. */
static int load_header(struct preserve *p)
{
	unsigned char h[BK_HDR], *tab;
	uint64_t tl, sum;

	if (pread_exact(p->fd, h, BK_HDR, 0) < 0 || memcmp(h, BK_MAGIC, 8) != 0 ||
	    (uint32_t)bk_get64(h + 8) != BK_VERSION) {
		fprintf(stderr, "flashbench: --restore: %s is not a complete flashbench backup; "
			"refusing it\n", p->file);
		return FB_ESAFETY;
	}
	p->nr = (uint32_t)(bk_get64(h + 8) >> 32);
	p->ns = (uint32_t)bk_get64(h + 16);
	p->sector = (uint32_t)(bk_get64(h + 16) >> 32);
	p->size = bk_get64(h + 24);
	p->total = bk_get64(h + 32);
	p->data_off = bk_get64(h + 40);
	memcpy(p->device, h + 64, BK_TEXT);
	memcpy(p->identity, h + 64 + BK_TEXT, BK_TEXT);
	p->device[BK_TEXT - 1] = p->identity[BK_TEXT - 1] = '\0';
	tl = bk_table_len(p->nr, p->ns);
	if (p->nr == 0 || p->nr > BK_MAX_REGIONS || p->ns > BK_SAMPLES || p->data_off < BK_HDR + tl ||
	    !(p->e = calloc(p->nr + p->ns, sizeof(*p->e))) || !(tab = malloc(tl)))
		goto bad;
	sum = pread_exact(p->fd, tab, tl, BK_HDR) < 0 ? 0 :
	      fnv1a64(fnv1a64(FNV64_INIT, h, BK_SUM_AT), tab, tl);
	for (uint32_t i = 0; i < p->nr + p->ns; i++)
		p->e[i] = (struct bk_entry){ bk_get64(tab + i * BK_ENTRY), bk_get64(tab + i * BK_ENTRY + 8),
					  bk_get64(tab + i * BK_ENTRY + 16) };
	free(tab);
	if (sum == bk_get64(h + BK_SUM_AT))
		return FB_OK;
bad:
	fprintf(stderr, "flashbench: --restore: the header of %s is corrupted; refusing it\n", p->file);
	return FB_ESAFETY;
}

/* The file's length and every region's checksum, before a byte is written. */
static int check_data(struct preserve *p)
{
	struct stat st;
	uint64_t pos = p->data_off, total = 0;
	unsigned char *buf = malloc(BK_CHUNK);

	for (uint32_t i = 0; i < p->nr; i++)
		total += p->e[i].len;
	if (!buf || fstat(p->fd, &st) < 0) {
		/* No size to compare with (st is not filled in): say why instead. */
		fprintf(stderr, "flashbench: --restore: cannot check %s: %s; refusing it\n",
			p->file, strerror(buf ? errno : ENOMEM));
		free(buf);
		return FB_ESAFETY;
	}
	if (total != p->total || (uint64_t)st.st_size != p->data_off + p->total) {
		fprintf(stderr, "flashbench: --restore: %s is truncated or damaged: %llu bytes, "
			"expected %llu; refusing it\n", p->file, (unsigned long long)st.st_size,
			(unsigned long long)(p->data_off + p->total));
		free(buf);
		return FB_ESAFETY;
	}
	for (uint32_t i = 0; i < p->nr; i++) {
		uint64_t h = FNV64_INIT;

		for (uint64_t done = 0, n; done < p->e[i].len; done += n, pos += n) {
			n = p->e[i].len - done < BK_CHUNK ? p->e[i].len - done : BK_CHUNK;
			if (pread_exact(p->fd, buf, n, pos) < 0)
				break;
			h = fnv1a64(h, buf, n);
		}
		if (h != p->e[i].sum) {
			fprintf(stderr, "flashbench: --restore: %s is corrupted: the data of offset "
				"%llu, length %llu fails its checksum; refusing it\n", p->file,
				(unsigned long long)p->e[i].off, (unsigned long long)p->e[i].len);
			free(buf);
			return FB_ESAFETY;
		}
	}
	free(buf);
	return FB_OK;
}

/* Can region e be written to t as it is? Says why not. */
static bool region_fits(const struct preserve *p, const struct bk_entry *e,
		       const struct target *t, const char *device)
{
	const char *why = NULL;

	if (e->off % t->sector || e->len % t->sector)
		why = "is not aligned to the device's sectors";
	else if (e->off + e->len > t->size || e->off + e->len < e->off)
		why = "lies past the end of the device";
	if (why)
		fprintf(stderr, "flashbench: --restore: %s: the region at offset %llu, length %llu "
			"%s (%s: %u-byte sectors, %llu bytes); refusing it\n", p->file,
			(unsigned long long)e->off, (unsigned long long)e->len, why, device,
			t->sector, (unsigned long long)t->size);
	return why == NULL;
}

/* Is t the device the backup was made of? Size, identity, then the samples. */
int backup_match(struct preserve *p, struct target *t, const char *device)
{
	char id[BK_TEXT];
	uint64_t sum;
	void *buf;

	safety_identity(device, id, sizeof(id));
	if (t->size != p->size || strcmp(id, p->identity) != 0) {
		fprintf(stderr, "flashbench: --restore: %s was made of %s (%s, %llu bytes), not of "
			"%s (%s, %llu bytes); refusing it\n", p->file, p->device, p->identity,
			(unsigned long long)p->size, device, id, (unsigned long long)t->size);
		return FB_ESAFETY;
	}
	for (uint32_t i = 0; i < p->nr; i++)
		if (!region_fits(p, &p->e[i], t, device))
			return FB_ESAFETY;
	if (!(buf = bk_io_buffer(t)))
		return FB_EDEV;
	for (uint32_t i = p->nr; i < p->nr + p->ns; i++) {
		if (p->e[i].off % t->sector || p->e[i].len % t->sector ||
		    bk_device_sum(t, buf, p->e[i].off, p->e[i].len, &sum) < 0 || sum != p->e[i].sum) {
			fprintf(stderr, "flashbench: --restore: %s does not match %s: the data at offset "
				"%llu, which the test never writes, differs; refusing it\n",
				p->file, device, (unsigned long long)p->e[i].off);
			free(buf);
			return FB_ESAFETY;
		}
	}
	free(buf);
	return FB_OK;
}

int backup_open(const char *file, struct preserve **out)
{
	struct preserve *p = calloc(1, sizeof(*p));
	struct stat st;
	int r;

	*out = NULL;
	if (!p)
		return FB_EDEV;
	p->keep = true;
	snprintf(p->file, sizeof(p->file), "%s", file);
	/* O_NONBLOCK: a FIFO must not hang the run before it is refused. */
	if ((p->fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
		fprintf(stderr, "flashbench: --restore: cannot open '%s': %s\n", file, strerror(errno));
		free(p);
		return FB_EUSAGE;
	}
	if (fstat(p->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "flashbench: --restore: '%s' is not a regular file\n", file);
		backup_free(p);
		return FB_EUSAGE;
	}
	r = load_header(p);
	if (r == FB_OK)
		r = check_data(p);
	if (r != FB_OK)
		backup_free(p);
	else
		*out = p;
	return r;
}
