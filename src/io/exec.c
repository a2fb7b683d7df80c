// SPDX-License-Identifier: GPL-2.0-only
/* exec_prerun= / exec_postrun= (exec.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include "iobench/exec.h"

bool ib_exec_job_cmd(const char *jobname, const char *cmd, const char *mode,
		     bool to_stderr)
{
	const char *open = to_stderr ? "{ " : "", *close = to_stderr ? "\n} 1>&2" : "";
	int len = snprintf(NULL, 0, "%s%s > %s.%s.txt 2>&1%s", open, cmd, jobname,
			   mode, close);
	void (*old)(int);
	char *line;
	int ret;

	if (len < 0)
		return false;
	line = malloc((size_t)len + 1);
	if (!line)
		return false;
	snprintf(line, (size_t)len + 1, "%s%s > %s.%s.txt 2>&1%s", open, cmd, jobname,
		 mode, close);
	fflush(NULL);
	/* the command gets SIGPIPE's default, not the run's SIG_IGN (main.c) */
	old = signal(SIGPIPE, SIG_DFL);
	ret = system(line);
	signal(SIGPIPE, old);
	free(line);
	return ret == 0;
}
