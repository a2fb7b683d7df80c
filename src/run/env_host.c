// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host facts for the environment capture: kernel, CPUs, memory, clock
 * source, frequency governor, virtualisation (env.h).
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "env_priv.h"

/* "0-3,6,8-9" -> 7; 0 if it does not parse */
static unsigned int count_cpulist(const char *s)
{
	unsigned long a, b;
	unsigned int n = 0;
	char *end;

	while (*s) {
		a = strtoul(s, &end, 10);
		if (end == s)
			return 0;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s || b < a)
				return 0;
		}
		n += (unsigned int)(b - a + 1);
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return 0;
	}
	return n;
}

/* "key<blanks>: value" -> 1 and *val when the key matches */
static int cpuinfo_field(const char *line, const char *key, const char **val)
{
	size_t k = strlen(key);
	const char *p = line + k;

	if (strncmp(line, key, k))
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return 0;
	p++;
	while (*p == ' ')
		p++;
	*val = p;
	return 1;
}

/* word w in the blank-separated list s */
static int has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	const char *p = s;

	while ((p = strstr(p, w))) {
		if ((p == s || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return 1;
		p += n;
	}
	return 0;
}

/* model name (x86), else Model/cpu model/cpu (arm, mips, ppc); hypervisor flag */
static void cpuinfo(struct ib_env *e, const char *proc)
{
	static const char *const keys[] = { "model name", "Model", "cpu model", "cpu" };
	char p[PATH_MAX], *line = NULL;
	unsigned int best = sizeof(keys) / sizeof(keys[0]), k;
	const char *v;
	size_t cap = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/cpuinfo", proc);
	f = fopen(p, "re");
	if (!f)
		return;
	e->hypervisor_flag = 0;
	while (getline(&line, &cap, f) > 0) {
		for (k = 0; k < best; k++) {
			if (cpuinfo_field(line, keys[k], &v)) {
				ib_env_copy(e->cpu_model, sizeof(e->cpu_model), v);
				best = k;
			}
		}
		if (cpuinfo_field(line, "flags", &v) && has_word(v, "hypervisor"))
			e->hypervisor_flag = 1;
	}
	free(line);
	fclose(f);
}

static uint64_t mem_total(const char *proc)
{
	unsigned long long kb;
	char p[PATH_MAX], line[256];
	uint64_t v = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/meminfo", proc);
	f = fopen(p, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			v = (uint64_t)kb * 1024;
			break;
		}
	fclose(f);
	return v;
}

/* The policies' scaling_governor: one name, "mixed", or "none" (no cpufreq) */
static void governor(struct ib_env *e, const char *sys)
{
	char dir[PATH_MAX], g[IB_ENV_STR];
	struct dirent *de;
	DIR *d;

	snprintf(e->governor, sizeof(e->governor), "none");
	snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpufreq", sys);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "policy", 6))
			continue;
		if (ib_env_read(g, sizeof(g), dir, "%s/scaling_governor", de->d_name) || !g[0])
			continue;
		if (!strcmp(e->governor, "none"))
			memcpy(e->governor, g, sizeof(g));
		else if (strcmp(e->governor, g))
			snprintf(e->governor, sizeof(e->governor), "mixed");
	}
	closedir(d);
}

static void cpus_online(struct ib_env *e, const char *sys)
{
	char list[512];

	if (!ib_env_read(list, sizeof(list), sys, "devices/system/cpu/online"))
		e->cpus_online = count_cpulist(list);
}

static void virt(struct ib_env *e, const char *sys)
{
	ib_env_read(e->sys_vendor, sizeof(e->sys_vendor), sys, "class/dmi/id/sys_vendor");
	ib_env_read(e->product_name, sizeof(e->product_name), sys,
		    "class/dmi/id/product_name");
	ib_env_read(e->product_version, sizeof(e->product_version), sys,
		    "class/dmi/id/product_version");
	ib_env_read(e->hypervisor_type, sizeof(e->hypervisor_type), sys, "hypervisor/type");
}

void ib_env_host(struct ib_env *e, const struct ib_env_roots *r)
{
	const char *sys = ib_env_sys(r), *proc = ib_env_proc(r);
	struct utsname u;

	ib_env_read(e->hostname, sizeof(e->hostname), proc, "sys/kernel/hostname");
	ib_env_read(e->kernel_release, sizeof(e->kernel_release), proc,
		    "sys/kernel/osrelease");
	ib_env_read(e->kernel_version, sizeof(e->kernel_version), proc,
		    "sys/kernel/version");
	if (uname(&u) == 0)
		ib_env_copy(e->arch, sizeof(e->arch), u.machine);
	e->hypervisor_flag = -1;
	cpuinfo(e, proc);
	cpus_online(e, sys);
	e->mem_total = mem_total(proc);
	ib_env_read(e->clocksource, sizeof(e->clocksource), sys,
		    "devices/system/clocksource/clocksource0/current_clocksource");
	governor(e, sys);
	virt(e, sys);
}
