// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verify state files (vrun.h): the blocks a verifying write job completed,
 * saved at its end and loaded by a later verify_only or read job. iobench's
 * own format (fio's holds its generator state), in doc/fio-compat.md:
 *
 *   header, 64 bytes, little-endian:
 *      0  char magic[8]    "IBVSTATE"
 *      8  u32  version     1
 *     12  u32  nr_files    the job's files
 *     16  char verify[16]  the verify type's name, NUL padded
 *     32  u64  seed        the payload seed base of the job
 *     40  u64  writes      writes the job issued
 *     48  u64  records     N
 *     56  u32  crc32c of the records
 *     60  u32  crc32c of bytes 0-59
 *   then N records of 24 bytes, in write order:
 *      0  u64  offset      8  u64 seq (write number, from 0)
 *     16  u32  length     20  u16 file index   22  u16 0
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/csum.h"
#include "vrun.h"

#define HDR_SIZE 64
#define REC_SIZE 24
#define CHUNK 4096	/* records per write or read */
static const char magic[8] = "IBVSTATE";

void ib_vstate_name(const struct ib_job *job, char *out, size_t len)
{
	char name[IB_NAME_MAX];
	size_t i;

	for (i = 0; job->name[i] && i + 1 < sizeof(name); i++)
		name[i] = job->name[i] == '/' ? '.' : job->name[i];
	name[i] = '\0';
	snprintf(out, len, "local-%s-%u-verify.state", name,
		 job->number ? job->number - 1 : 0);
}

static uint32_t crc32c(const void *p, size_t len, struct ib_csum_ctx *c)
{
	uint8_t out[4];
	uint32_t v;

	ib_csum_init(c, IB_CSUM_CRC32C);
	ib_csum_update(c, p, len);
	ib_csum_final(c, out);
	memcpy(&v, out, 4);
	return v;
}

static void put_rec(uint8_t *p, const struct ib_vrec *r)
{
	uint64_t off = htole64(r->offset), seq = htole64(r->seq);
	uint32_t len = htole32(r->len);
	uint16_t fi = htole16(r->file_idx), zero = 0;

	memcpy(p, &off, 8);
	memcpy(p + 8, &seq, 8);
	memcpy(p + 16, &len, 4);
	memcpy(p + 20, &fi, 2);
	memcpy(p + 22, &zero, 2);
}

static void get_rec(const uint8_t *p, struct ib_vrec *r)
{
	uint64_t off, seq;
	uint32_t len;
	uint16_t fi;

	memcpy(&off, p, 8);
	memcpy(&seq, p + 8, 8);
	memcpy(&len, p + 16, 4);
	memcpy(&fi, p + 20, 2);
	*r = (struct ib_vrec){ .offset = le64toh(off), .seq = le64toh(seq),
			       .len = le32toh(len), .file_idx = le16toh(fi) };
}

static void put_hdr(uint8_t *h, const struct ib_vrun *v, uint32_t rcrc,
		    struct ib_csum_ctx *c)
{
	uint32_t ver = htole32(1), nf = htole32(v->ctx->nr_files);
	uint64_t seed = htole64(v->seed_base), w = htole64(v->seq);
	uint64_t n = htole64(v->nr);
	uint32_t hcrc;

	memset(h, 0, HDR_SIZE);
	memcpy(h, magic, 8);
	memcpy(h + 8, &ver, 4);
	memcpy(h + 12, &nf, 4);
	strncpy((char *)h + 16, ib_verify_name(v->spec.type), 15);
	memcpy(h + 32, &seed, 8);
	memcpy(h + 40, &w, 8);
	memcpy(h + 48, &n, 8);
	rcrc = htole32(rcrc);
	memcpy(h + 56, &rcrc, 4);
	hcrc = htole32(crc32c(h, 60, c));
	memcpy(h + 60, &hcrc, 4);
}

/* The records, CHUNK at a time, after room for the header; their crc. */
static int write_recs(FILE *f, const struct ib_vrun *v, uint32_t *crc)
{
	uint8_t *buf = malloc(CHUNK * REC_SIZE), out[4];
	struct ib_csum_ctx c;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	ib_csum_init(&c, IB_CSUM_CRC32C);
	if (fseek(f, HDR_SIZE, SEEK_SET) < 0)
		ret = -errno;
	for (size_t i = 0; !ret && i < v->nr; i += CHUNK) {
		size_t n = v->nr - i < CHUNK ? v->nr - i : CHUNK;

		for (size_t k = 0; k < n; k++)
			put_rec(buf + k * REC_SIZE, &v->recs[i + k]);
		ib_csum_update(&c, buf, n * REC_SIZE);
		if (fwrite(buf, REC_SIZE, n, f) != n)
			ret = -(errno ? errno : EIO);
	}
	free(buf);
	ib_csum_final(&c, out);
	memcpy(crc, out, 4);
	return ret;
}

static int write_file(FILE *f, const struct ib_vrun *v)
{
	uint8_t hdr[HDR_SIZE];
	struct ib_csum_ctx c;
	uint32_t crc;
	int ret = write_recs(f, v, &crc);

	if (ret)
		return ret;
	put_hdr(hdr, v, crc, &c);
	if (fseek(f, 0, SEEK_SET) < 0)
		return -errno;
	if (fwrite(hdr, HDR_SIZE, 1, f) != 1 || fflush(f) || fsync(fileno(f)))
		return -(errno ? errno : EIO);
	return 0;
}

int ib_vstate_save(struct ib_vrun *v, const char *path, struct ib_diag *d)
{
	char tmp[4200];
	FILE *f = NULL;
	int ret, fd;

	ib_vrun_drop_overwritten_all(v);
	/* a unique new file (O_EXCL: no link followed), renamed into place */
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd >= 0 && (fchmod(fd, 0644) < 0 || !(f = fdopen(fd, "w")))) {
		ret = errno;
		close(fd);
		unlink(tmp);
		errno = ret;
	}
	if (!f)
		return ib_diag_set(d, errno, "verify_state_save: cannot create %s: %s",
				   tmp, strerror(errno));
	errno = 0;
	ret = write_file(f, v);
	if (fclose(f) && !ret)
		ret = -(errno ? errno : EIO);
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return ib_diag_set(d, -ret, "verify_state_save: cannot write %s: %s",
				   path, strerror(-ret));
	}
	return 0;
}

/* --- load ----------------------------------------------------------------- */

struct vhdr {
	uint32_t nr_files;
	char verify[16];
	uint64_t seed, writes, nr;
	uint32_t rcrc;
};

static int parse_hdr(const uint8_t *h, struct vhdr *o, const char *path,
		     struct ib_diag *d)
{
	struct ib_csum_ctx c;
	uint32_t ver, hcrc;

	memcpy(&ver, h + 8, 4);
	memcpy(&hcrc, h + 60, 4);
	if (memcmp(h, magic, 8) || le32toh(ver) != 1)
		return ib_diag_set(d, EINVAL,
				   "verify_state_load: %s is not an iobench verify state (version 1)",
				   path);
	if (le32toh(hcrc) != crc32c(h, 60, &c))
		return ib_diag_set(d, EINVAL, "verify_state_load: %s: corrupt header",
				   path);
	memcpy(&o->nr_files, h + 12, 4);
	memcpy(o->verify, h + 16, 16);
	o->verify[15] = '\0';
	memcpy(&o->seed, h + 32, 8);
	memcpy(&o->writes, h + 40, 8);
	memcpy(&o->nr, h + 48, 8);
	memcpy(&o->rcrc, h + 56, 4);
	o->nr_files = le32toh(o->nr_files);
	o->seed = le64toh(o->seed);
	o->writes = le64toh(o->writes);
	o->nr = le64toh(o->nr);
	o->rcrc = le32toh(o->rcrc);
	return 0;
}

/* Does the state fit the job (verify type, files)? */
static int check_fit(const struct ib_vrun *v, const struct vhdr *h,
		     const char *path, struct ib_diag *d)
{
	const char *mine = ib_verify_name(v->spec.type);

	if (strcmp(h->verify, mine))
		return ib_diag_set(d, EINVAL,
				   "verify_state_load: %s was saved by a job with verify=%s, this one has verify=%s",
				   path, h->verify, mine);
	if (h->nr_files != v->ctx->nr_files)
		return ib_diag_set(d, EINVAL,
				   "verify_state_load: %s was saved by a job with %u files, this one has %u",
				   path, h->nr_files, v->ctx->nr_files);
	if (h->nr > SIZE_MAX / sizeof(struct ib_vrec))
		return ib_diag_set(d, EFBIG, "verify_state_load: %s: %llu records",
				   path, (unsigned long long)h->nr);
	return 0;
}

static int read_recs(FILE *f, struct ib_vrun *v, const struct vhdr *h,
		     uint32_t *crc)
{
	uint8_t *buf = malloc(CHUNK * REC_SIZE), out[4];
	struct ib_csum_ctx c;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	ib_csum_init(&c, IB_CSUM_CRC32C);
	for (uint64_t i = 0; !ret && i < h->nr; i += CHUNK) {
		size_t n = h->nr - i < CHUNK ? (size_t)(h->nr - i) : CHUNK;

		if (fread(buf, REC_SIZE, n, f) != n) {
			ret = -EINVAL;
			break;
		}
		ib_csum_update(&c, buf, n * REC_SIZE);
		for (size_t k = 0; k < n; k++)
			get_rec(buf + k * REC_SIZE, &v->recs[i + k]);
	}
	free(buf);
	ib_csum_final(&c, out);
	memcpy(crc, out, 4);
	return ret;
}

/* The records: in the job's files, as long as a header at least. */
static int check_recs(const struct ib_vrun *v, const char *path,
		      struct ib_diag *d)
{
	for (size_t i = 0; i < v->nr; i++) {
		const struct ib_vrec *r = &v->recs[i];

		if (r->file_idx >= v->ctx->nr_files || !r->len ||
		    r->len > v->ctx->buf_size)
			return ib_diag_set(d, EINVAL,
					   "verify_state_load: %s: record %zu (file %u, offset %llu, length %u) does not fit the job",
					   path, i, r->file_idx,
					   (unsigned long long)r->offset, r->len);
	}
	return 0;
}

static int load_file(FILE *f, struct ib_vrun *v, const char *path,
		     struct ib_diag *d)
{
	uint8_t raw[HDR_SIZE];
	struct vhdr h;
	uint32_t crc;
	int ret;

	if (fread(raw, HDR_SIZE, 1, f) != 1)
		return ib_diag_set(d, EINVAL, "verify_state_load: %s: too short", path);
	ret = parse_hdr(raw, &h, path, d);
	if (!ret)
		ret = check_fit(v, &h, path, d);
	if (ret)
		return ret;
	free(v->recs);
	v->nr = v->head = v->cap = 0;
	v->recs = malloc((h.nr ? h.nr : 1) * sizeof(*v->recs));
	if (!v->recs)
		return ib_diag_set(d, ENOMEM, "verify_state_load: %s: no memory for %llu records",
				   path, (unsigned long long)h.nr);
	v->cap = h.nr ? h.nr : 1;
	ret = read_recs(f, v, &h, &crc);
	if (ret == -ENOMEM)
		return ib_diag_set(d, ENOMEM, "verify_state_load: no memory");
	if (ret || crc != h.rcrc)
		return ib_diag_set(d, EINVAL, "verify_state_load: %s: %s", path,
				   ret ? "truncated" : "corrupt records");
	v->nr = h.nr;
	v->seed_base = h.seed;
	v->seq = h.writes;
	return check_recs(v, path, d);
}

int ib_vstate_load(struct ib_vrun *v, const char *path, struct ib_diag *d)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f)
		return ib_diag_set(d, errno, "verify_state_load: cannot open %s: %s",
				   path, strerror(errno));
	ret = load_file(f, v, path, d);
	fclose(f);
	if (ret)
		return ret;
	v->blind = false;
	v->spec.check_seed = v->job->verify.header_seed;
	v->check_nio = v->job->verify.write_sequence;
	v->keep_all = false;
	v->loaded = true;
	v->pass_bytes = v->pass_left = 0;
	return 0;
}
