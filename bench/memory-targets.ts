// The memory targets as multiples of the module floor (bench/module-floor.ts: an empty Node process
// with the service's modules loaded, same flags), which carry across machines; the absolute targets
// they came from (350 and 200 MiB) divided by the floor where they were set: 118 MiB at 834fa4f
// (Node 24.21, 2 × AMD EPYC), rounded. Read by the memory section (run.ts) and the statistics
// section's embedded service (stats-storage.ts).
export const FLOOR_AT_TARGETS_MIB = 118;
export const SERVE_PEAK_TARGET = { ratio: 3.0, mib: 350 };
export const IDLE_TARGET = { ratio: 1.7, mib: 200 };
