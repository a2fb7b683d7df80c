// SPDX-License-Identifier: GPL-2.0-only
/*
 * The names of fio's job options, 3.33's and those 3.34 to 3.42 added
 * (facts from their HOWTOs, option tables and --cmdhelp/--enghelp output,
 * doc/fio-compat.md): every one iobench does not implement is refused by
 * name, "not supported by iobench", never as an "unknown option" and never
 * accepted and ignored. Engine options name the fio engines that own them;
 * the options fio itself has retired (it fails to parse them) say so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "iobench/compiler.h"
#include "iobench/options.h"
#include "options_priv.h"

/* fio's generic job options and their aliases. */
static const char *const fio_names[] = {
	"allow_file_create", "allow_mounted_write", "allrandrepeat", "atomic", "ba",
	"block_error_percentiles", "blockalign", "blocksize", "blocksize_range",
	"blocksize_unaligned", "bs", "bs_is_seq_rand", "bs_unaligned", "bsrange",
	"bssplit", "buffer_compress_chunk", "buffer_compress_percentage",
	"buffer_pattern", "buffered", "bwavgtime", "cgroup", "cgroup_nodelete",
	"cgroup_weight", "clat_percentiles", "clocksource", "continue_on_error",
	"cpumask", "cpus_allowed", "cpus_allowed_policy", "create_fsync",
	"create_on_open", "create_only", "create_serialize", "daemonize",
	"dedupe_global", "dedupe_mode",
	"dedupe_percentage", "dedupe_working_set_percentage", "description", "direct",
	"directory", "disable_bw", "disable_bw_measurement", "disable_clat",
	"disable_lat", "disable_slat", "disk_util", "end_fsync",
	"error_dump", "exec_postrun", "exec_prerun", "exit_what", "exitall",
	"exitall_on_error", "fadvise_hint",
	"fallocate", "fdatasync", "file_append", "file_service_type", "filename",
	"filename_format", "fileoffset", "filesize", "fill_device", "fill_fs", "flow",
	"flow_id", "flow_sleep", "fsync", "fsync_on_close", "gid", "group_reporting",
	"gpu_dev_id", "gtod_cpu", "gtod_reduce", "hugepage-size", "ignore_error",
	"ignore_zone_limits", "invalidate", "io_limit", "io_size", "io_submit_mode",
	"iodepth", "iodepth_batch", "iodepth_batch_complete",
	"iodepth_batch_complete_max", "iodepth_batch_complete_min",
	"iodepth_batch_submit", "iodepth_low", "ioengine", "iomem",
	"iomem_align", "iopsavgtime", "ioscheduler", "job_max_open_zones", "kb_base",
	"lat_percentiles", "latency_percentile", "latency_run", "latency_target",
	"latency_window", "lockfile", "lockmem", "log_alternate_epoch",
	"log_alternate_epoch_clock_id", "log_avg_msec", "log_compression",
	"log_compression_cpus", "log_entries", "log_hist_coarse",
	"log_hist_coarseness", "log_hist_msec", "log_max_value", "log_offset",
	"log_prio", "log_store_compressed", "log_unix_epoch", "loops", "max_latency",
	"max_open_zones", "mem", "mem_align", "merge_blktrace_file",
	"merge_blktrace_iters", "merge_blktrace_scalars", "name", "new_group", "nice",
	"norandommap", "nr_files", "nrfiles", "numa_cpu_nodes", "numa_mem_policy",
	"number_ios", "numjobs", "offset", "offset_align", "offset_increment",
	"opendir", "openfiles", "overwrite", "per_job_logs", "percentage_random",
	"percentile_list", "pre_read", "prio", "prioclass", "profile", "ramp_time",
	"random_distribution", "random_generator", "randrepeat", "randseed", "rate",
	"rate_cycle", "rate_ignore_thinktime", "rate_iops", "rate_iops_min",
	"rate_min", "rate_process", "ratecycle", "ratemin", "read_beyond_wp",
	"read_iolog", "read_iolog_chunked", "readwrite", "recover_zbd_write_error",
	"refill_buffers",
	"replay_align", "replay_no_stall", "replay_redirect", "replay_scale",
	"replay_skip", "replay_time_scale", "runtime", "rw", "rw_sequencer",
	"rwmixread", "rwmixwrite", "scramble_buffers", "serialize_overlap",
	"significant_figures", "size", "slat_percentiles", "softrandommap",
	"ss", "ss_dur", "ss_ramp", "startdelay", "stats",
	"steadystate", "steadystate_duration", "steadystate_ramp_time", "stonewall",
	"sync", "sync_file_range", "thinktime", "thinktime_blocks",
	"thinktime_blocks_type", "thinktime_iotime", "thinktime_spin", "thread",
	"time_based", "timeout", "trim_backlog", "trim_backlog_batch",
	"trim_percentage", "uid", "unified_rw_reporting",
	"unique_filename", "unit_base", "unlink", "unlink_each_loop",
	"wait_for", "wait_for_previous",
	"write_barrier", "write_bw_log", "write_hint", "write_hist_log",
	"write_iolog", "write_iops_log", "write_lat_log", "write_zone_remainder",
	"zero_buffers",
	"zone_reset_frequency", "zone_reset_threshold", "zonecapacity", "zonemode",
	"zonerange", "zonesize", "zoneskip",
};

/* A fio option name and what iobench says of it. */
struct fio_note {
	const char *name;
	const char *note;
};

/* fio's engine-specific options and the engines that own them (space
 * separated). */
static const struct fio_note fio_engine_names[] = {
	{ "apptag", "io_uring_cmd xnvme" },
	{ "apptag_mask", "io_uring_cmd xnvme" },
	{ "arguments", "exec" },
	{ "bindname", "rdma" },
	{ "brick", "gfapi gfapi_async" },
	{ "busy_poll", "rados rbd" },
	{ "busy_wait_polling", "librpma_apm_client" },
	{ "chunck_size", "libhdfs" },
	{ "chunk_size", "dfs libhdfs" },
	{ "clientname", "rados rbd" },
	{ "clustername", "rados rbd" },
	{ "cmd_type", "io_uring io_uring_cmd" },
	{ "cmdprio", "io_uring io_uring_cmd libaio" },
	{ "cmdprio_bssplit", "io_uring io_uring_cmd libaio" },
	{ "cmdprio_class", "io_uring io_uring_cmd libaio" },
	{ "cmdprio_hint", "io_uring libaio" },
	{ "cmdprio_percentage", "io_uring io_uring_cmd libaio" },
	{ "conf", "rados" },
	{ "cont", "dfs" },
	{ "cpuchunks", "cpuio" },
	{ "cpuload", "cpuio" },
	{ "cpumode", "cpuio" },
	{ "cuda_io", "libcufile" },
	{ "data_placement", "io_uring_cmd xnvme" },
	{ "dataplacement", "io_uring_cmd xnvme" },
	{ "deac", "io_uring_cmd" },
	{ "direct_write_to_pmem", "librpma_apm_client" },
	{ "donorname", "e4defrag" },
	{ "dp_scheme", "io_uring_cmd xnvme" },
	{ "exit_on_io_done", "cpuio" },
	{ "fdp", "io_uring_cmd xnvme" },
	{ "fdp_pli", "io_uring_cmd xnvme" },
	{ "fdp_pli_select", "io_uring_cmd xnvme" },
	{ "fixedbufs", "io_uring io_uring_cmd" },
	{ "force_async", "io_uring io_uring_cmd" },
	{ "gpu_dev_ids", "libcufile" },
	{ "grace_time", "exec" },
	{ "hdfs_use_direct", "libhdfs" },
	{ "hdfsdirectory", "libhdfs" },
	{ "hipri", "io_uring io_uring_cmd pvsync2 sg" },
	{ "hipri_percentage", "pvsync2" },
	{ "hostname", "libhdfs net netsplice rdma" },
	{ "http_host", "http" },
	{ "http_mode", "http" },
	{ "http_object_mode", "http" },
	{ "http_pass", "http" },
	{ "http_s3_key", "http" },
	{ "http_s3_keyid", "http" },
	{ "http_s3_region", "http" },
	{ "http_s3_security_token", "http" },
	{ "http_s3_sse_customer_algorithm", "http" },
	{ "http_s3_sse_customer_key", "http" },
	{ "http_s3_storage_class", "http" },
	{ "http_swift_auth_token", "http" },
	{ "http_user", "http" },
	{ "http_verbose", "http" },
	{ "https", "http" },
	{ "initiator", "libiscsi" },
	{ "inplace", "e4defrag" },
	{ "interface", "net netsplice" },
	{ "libblkio_driver", "libblkio" },
	{ "libblkio_force_enable_completion_eventfd", "libblkio" },
	{ "libblkio_num_entries", "libblkio" },
	{ "libblkio_path", "libblkio" },
	{ "libblkio_pre_connect_props", "libblkio" },
	{ "libblkio_pre_start_props", "libblkio" },
	{ "libblkio_queue_size", "libblkio" },
	{ "libblkio_vectored", "libblkio" },
	{ "libblkio_wait_mode", "libblkio" },
	{ "libblkio_write_zeroes_on_trim", "libblkio" },
	{ "listen", "net netsplice" },
	{ "md_per_io_size", "io_uring_cmd xnvme" },
	{ "mss", "net netsplice" },
	{ "namenode", "libhdfs" },
	{ "nfs_url", "nfs" },
	{ "no_completion_thread", "windowsaio" },
	{ "nodelay", "net netsplice" },
	{ "nonvectored", "io_uring io_uring_cmd" },
	{ "nowait", "io_uring io_uring_cmd libaio pvsync2" },
	{ "num_range", "io_uring_cmd" },
	{ "object_class", "dfs" },
	{ "pi_act", "io_uring_cmd xnvme" },
	{ "pi_chk", "io_uring_cmd xnvme" },
	{ "pingpong", "net netsplice" },
	{ "plid_select", "io_uring_cmd xnvme" },
	{ "plids", "io_uring_cmd xnvme" },
	{ "pool", "dfs rados rbd" },
	{ "port", "libhdfs librpma_apm_client net netsplice rdma" },
	{ "program", "exec" },
	{ "proto", "net netsplice rdma" },
	{ "protocol", "net netsplice" },
	{ "rbd_encryption_format", "rbd" },
	{ "rbd_encryption_passphrase", "rbd" },
	{ "rbdname", "rbd" },
	{ "readfua", "io_uring_cmd sg" },
	{ "registerfiles", "io_uring io_uring_cmd" },
	{ "serverip", "librpma_apm_client" },
	{ "sg_write_mode", "sg" },
	{ "single-instance", "gfapi gfapi_async" },
	{ "single_instance", "libhdfs" },
	{ "skip_bad", "mtd" },
	{ "sqthread_poll", "io_uring io_uring_cmd" },
	{ "sqthread_poll_cpu", "io_uring io_uring_cmd" },
	{ "stat_type", "filestat" },
	{ "std_redirect", "exec" },
	{ "stream_id", "sg" },
	{ "svcl", "dfs" },
	{ "thp", "mmap" },
	{ "touch_objects", "rados" },
	{ "ttl", "net netsplice" },
	{ "uri", "nbd" },
	{ "userspace_reap", "libaio" },
	{ "verb", "rdma" },
	{ "verify_mode", "io_uring_cmd" },
	{ "volume", "gfapi gfapi_async" },
	{ "window_size", "net netsplice" },
	{ "write_mode", "io_uring_cmd" },
	{ "writefua", "io_uring_cmd sg" },
	{ "xnvme_admin", "xnvme" },
	{ "xnvme_async", "xnvme" },
	{ "xnvme_be", "xnvme" },
	{ "xnvme_dev_nsid", "xnvme" },
	{ "xnvme_dev_subnqn", "xnvme" },
	{ "xnvme_iovec", "xnvme" },
	{ "xnvme_mem", "xnvme" },
	{ "xnvme_sync", "xnvme" },
};

/*
 * Options fio has retired (FIO_OPT_DEPRECATED): fio 3.33 and 3.42 fail to
 * parse them, "Option ... is deprecated"; what takes their place, if any.
 */
static const struct fio_note fio_retired[] = {
	{ "percentage_sequential", " (percentage_random sets the mix)" },
	{ "rwmixcycle", "" },
};

/* The note of name in one of the tables above, or NULL. */
static const char *note_of(const struct fio_note *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(t[i].name, name))
			return t[i].note;
	return NULL;
}

static const char *retired_hint(const char *name)
{
	return note_of(fio_retired, IB_ARRAY_SIZE(fio_retired), name);
}

static bool in_list(const char *name)
{
	for (size_t i = 0; i < IB_ARRAY_SIZE(fio_names); i++)
		if (!strcasecmp(fio_names[i], name))
			return true;
	return false;
}

static const char *engine_owners(const char *name)
{
	return note_of(fio_engine_names, IB_ARRAY_SIZE(fio_engine_names), name);
}

bool ib_opt_unsupported(const char *name)
{
	return !ib_opt_find(name) &&
	       (in_list(name) || engine_owners(name) || retired_hint(name));
}

/* "rbd", "net and netsplice", "io_uring, io_uring_cmd and libaio" */
static void engine_list(const char *engines, char *buf, size_t len)
{
	const char *p = engines, *sp;
	size_t used = 0;
	unsigned int n = 0, total = 1;

	for (sp = engines; (sp = strchr(sp, ' ')); sp++)
		total++;
	buf[0] = '\0';
	while (*p && used < len) {
		sp = strchr(p, ' ');
		size_t w = sp ? (size_t)(sp - p) : strlen(p);

		n++;
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s",
					 n == 1 ? "" : n == total ? " and " : ", ",
					 (int)w, p);
		p += w + (sp != NULL);
	}
}

int ib_opt_refuse(const char *name, bool dashes, struct ib_diag *d)
{
	const char *dash = dashes ? "--" : "";
	const char *engines, *instead;
	char list[160];

	if (ib_opt_find(name))
		return 0;
	instead = retired_hint(name);
	if (instead)
		return ib_diag_set(d, ENOTSUP, "%s%s: a deprecated fio option, which fio "
				   "refuses too%s", dash, name, instead);
	if (in_list(name))
		return ib_diag_set(d, ENOTSUP, "%s%s: fio option not supported by iobench",
				   dash, name);
	engines = engine_owners(name);
	if (!engines)
		return 0;
	engine_list(engines, list, sizeof(list));
	return ib_diag_set(d, ENOTSUP,
			   "%s%s: option of fio's %s engine%s, not supported by iobench",
			   dash, name, list, strchr(engines, ' ') ? "s" : "");
}
