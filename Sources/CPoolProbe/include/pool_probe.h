#ifndef ANCHORAGE_POOL_PROBE_H
#define ANCHORAGE_POOL_PROBE_H

/// Runs the pool probe on the calling thread until the process ends
/// (defined in Swift, in AnchorageTestRun's PoolProbe.swift).
void anchorage_pool_probe_run(void);

#endif
