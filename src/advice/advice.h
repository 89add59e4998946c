/*
 * --advise: from the verdicts of a run to a configured card -- the
 * partition layout as an sfdisk script and the file-system options that
 * fit the erase block, the page, the open-AU count and the FAT-optimised
 * area, each with one line on why. Pure: adv_plan() computes everything
 * from the numbers in struct adv_in (no I/O, no output); adv_print()
 * emits it through the output layer. Where a verdict is uncertain the
 * advice says which value it assumed, or declines what depends on it.
 */
#ifndef FB_ADVICE_H
#define FB_ADVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/out.h"
#include "advice/advice_fs.h"
#include "advice/advice_list.h"
#include "verdicts/facts.h"

/* The numbers of the facts (facts.h), the device's size and sector (0: not known). */
void adv_from_facts(const struct vf_facts *f, uint64_t size, uint32_t sector,
		    struct adv_in *in);

/*
 * The erase block the advice (and --survey) goes by: *erase, and the
 * result ("given", "named", "assumed"; "none" with *erase 0); why says
 * how it was come by.
 */
const char *adv_erase(const struct adv_in *in, uint64_t *erase, char *why, size_t len);

void adv_plan(const struct adv_in *in, struct adv *a);

/*
 * A device that keeps only real of the claimed bytes it reports
 * (--capacity): one partition over what holds, as f3fix makes it --
 * from 1MiB to the real end, FAT32 (type c) as such cards come -- as
 * advice items and an sfdisk script. Needs no erase block.
 */
void adv_real_size(uint64_t real, uint64_t claimed, uint32_t sector, struct adv *a);

/* The script's lines, as a table: one row per line, its text the line itself. */
extern const struct out_table adv_sfdisk_table;

/* The advice through the output layer: "advice: ..." lines and the script. */
void adv_print(const struct adv *a);

#endif
