/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exec_prerun= / exec_postrun=: a shell command run in the job's process
 * before its I/O and after it (fio's semantics). The command line is the
 * text given followed by " > JOBNAME.MODE.txt 2>&1" (MODE "prerun" or
 * "postrun"), run by system(): the redirection applies to the command's
 * last simple command, as in fio, and the file is in the current
 * directory. With to_stderr (the run's stdout carries JSON or terse
 * output, where iobench's messages go to stderr) the command's other
 * output goes to stderr: the line is "{ CMD\n} 1>&2" plus the redirection
 * inside. A prerun that fails (non-zero status) skips the job's I/O
 * and its postrun without an error, as fio does.
 */
#ifndef IOBENCH_EXEC_H
#define IOBENCH_EXEC_H

#include <stdbool.h>

/* The line fio prints for it: "JOB : Saving output of MODE in JOB.MODE.txt". */
#define IB_EXEC_MSG_FMT "%s : Saving output of %s in %s.%s.txt\n"

/*
 * Runs cmd for job jobname; mode is "prerun" or "postrun". Returns true
 * when the command ran and exited 0. Never prints (the parent prints
 * IB_EXEC_MSG_FMT).
 */
bool ib_exec_job_cmd(const char *jobname, const char *cmd, const char *mode,
		     bool to_stderr);

#endif
