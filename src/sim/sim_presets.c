/* The presets of sim: specs, with their true parameters: see sim_presets.h. */
#include <stddef.h>
#include <string.h>

#include "sim/sim_presets.h"

/*
 * The presets, with their true parameters. Each has a different
 * readahead plateau (read_chunk, see sim_model.h): fat 32K, sd 64K,
 * usb 128K, tlc 256K, ssd 512K, smr 1M.
 */
struct preset {
	const char *name;
	const char *what;
	struct sim_params p;
};

#define KIB	1024ULL
#define MIB	(1024ULL * 1024)
#define GIB	(1024ULL * 1024 * 1024)
#define US	1000ULL
#define MS	1000000ULL
#define MBPS	1000000ULL

static const struct preset presets[] = {
	{ "sd", "typical SD card (the default)", {
		.size = 4 * GIB, .erase = 4 * MIB, .page = 16 * KIB,
		.read_lat = 600 * US, .read_bw = 22 * MBPS, .read_chunk = 64 * KIB,
		.page_cross = 150 * US, .erase_cross = 450 * US,
		.write_lat = 400 * US, .write_bw = 10 * MBPS, .copy_bw = 14 * MBPS,
		.erase_ns = 3 * MS, .open_au = 5, .open_au_random = 3,
		.fat_aus = 0, .channels = 1, .cache = 0,
		.cache_bw = 30 * MBPS, .cache_recover = 10 * MBPS, .seed = 1,
		.stall_ns = 1 * MS } },
	{ "usb", "USB stick: 8 MiB erase blocks, many open AUs", {
		.size = 16 * GIB, .erase = 8 * MIB, .page = 16 * KIB,
		.read_lat = 1 * MS, .read_bw = 30 * MBPS, .read_chunk = 128 * KIB,
		.page_cross = 100 * US, .erase_cross = 400 * US,
		.write_lat = 300 * US, .write_bw = 12 * MBPS, .copy_bw = 20 * MBPS,
		.erase_ns = 4 * MS, .open_au = 12, .open_au_random = 4,
		.fat_aus = 0, .channels = 1, .cache = 0,
		.cache_bw = 40 * MBPS, .cache_recover = 10 * MBPS, .seed = 1,
		.stall_ns = 1 * MS } },
	{ "fat", "SD card with a FAT-optimised area in its first 2 AUs, no random AUs elsewhere", {
		.size = 2 * GIB, .erase = 4 * MIB, .page = 8 * KIB,
		.read_lat = 500 * US, .read_bw = 18 * MBPS, .read_chunk = 32 * KIB,
		.page_cross = 120 * US, .erase_cross = 400 * US,
		.write_lat = 500 * US, .write_bw = 8 * MBPS, .copy_bw = 12 * MBPS,
		.erase_ns = 3 * MS, .open_au = 3, .open_au_random = 0,
		.fat_aus = 2, .channels = 1, .cache = 0,
		.cache_bw = 30 * MBPS, .cache_recover = 10 * MBPS, .seed = 1,
		.stall_ns = 1 * MS } },
	{ "tlc", "TLC card with 6 MiB erase blocks", {
		.size = 6 * GIB, .erase = 6 * MIB, .page = 16 * KIB,
		.read_lat = 1500 * US, .read_bw = 40 * MBPS, .read_chunk = 256 * KIB,
		.page_cross = 100 * US, .erase_cross = 600 * US,
		.write_lat = 600 * US, .write_bw = 8 * MBPS, .copy_bw = 12 * MBPS,
		.erase_ns = 5 * MS, .open_au = 4, .open_au_random = 2,
		.fat_aus = 0, .channels = 1, .cache = 0,
		.cache_bw = 40 * MBPS, .cache_recover = 10 * MBPS, .seed = 1,
		.stall_ns = 1 * MS } },
	{ "ssd", "SATA SSD: 8 channels, 1 GiB write cache, many open AUs", {
		.size = 32 * GIB, .erase = 16 * MIB, .page = 16 * KIB,
		.read_lat = 250 * US, .read_bw = 500 * MBPS, .read_chunk = 512 * KIB,
		.page_cross = 5 * US, .erase_cross = 20 * US,
		.write_lat = 50 * US, .write_bw = 200 * MBPS, .copy_bw = 400 * MBPS,
		.erase_ns = 2 * MS, .open_au = 64, .open_au_random = 32,
		.fat_aus = 0, .channels = 8, .cache = 1 * GIB,
		.cache_bw = 450 * MBPS, .cache_recover = 200 * MBPS, .seed = 1,
		.stall_ns = 1 * MS } },
	{ "smr", "drive-managed SMR disk: 256 MiB bands, 2 GiB media cache", {
		.size = 64 * GIB, .erase = 256 * MIB, .page = 4 * KIB,
		.read_lat = 8 * MS, .read_bw = 180 * MBPS, .read_chunk = 1 * MIB,
		.page_cross = 10 * US, .erase_cross = 1 * MS,
		.write_lat = 4 * MS, .write_bw = 180 * MBPS, .copy_bw = 100 * MBPS,
		.erase_ns = 0, .open_au = 4, .open_au_random = 0,
		.fat_aus = 0, .channels = 1, .cache = 2 * GIB,
		.cache_bw = 150 * MBPS, .cache_recover = 40 * MBPS, .seed = 1,
		.stall_ns = 1 * MS } },
};

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

const struct sim_params *sim_preset(const char *name)
{
	for (size_t i = 0; i < NPRESETS; i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i].p;
	return NULL;
}

const char *sim_preset_at(size_t i, const char **what)
{
	if (i >= NPRESETS)
		return NULL;
	if (what)
		*what = presets[i].what;
	return presets[i].name;
}
