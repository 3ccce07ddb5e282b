/* The version every binary prints for --version. */
#ifndef DP_VERSION_H_
#define DP_VERSION_H_

/* "dperf-live 0.9.0 (git 1a2b3c4)"; the commit only when built from git. */
const char *dp_version(void);

#endif
