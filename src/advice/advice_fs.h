/* --advise: the file systems' options, from the plan's numbers (advice_fs.c). */
#ifndef FB_ADVICE_FS_H
#define FB_ADVICE_FS_H

#include <stdint.h>

#include "advice/advice_list.h"

void adv_ext4(const struct adv_in *in, struct adv *a);
void adv_f2fs(const struct adv_in *in, struct adv *a);
void adv_fat(const struct adv_in *in, struct adv *a);
/* FAT32's FAT length (sectors) for a partition, as mkfs.fat -a computes it. */
uint32_t adv_fat32_length(uint64_t sectors, uint32_t reserved, uint32_t spc, uint32_t sector,
			  uint64_t *clusters);

#endif
