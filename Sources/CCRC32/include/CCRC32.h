// CRC-32 (IEEE 802.3, the reflected polynomial 0xEDB88320) with the processor's carry-less multiply: the checksum
// of every stored event record, which the pipeline loop computes when it writes a record and again when it reads
// the batch back (BinobanCore's CRC32, Decision 0260). Where the instructions are missing (another architecture,
// or an x86-64 processor without PCLMULQDQ and SSE4.1) nothing is consumed and the caller's table does the work.
#ifndef CCRC32_H
#define CCRC32_H

#include <stddef.h>
#include <stdint.h>

/// Whether ccrc32_fold consumes anything on this processor.
int ccrc32_available(void);

/// Advances the running CRC register `*state` (not inverted: it starts at 0xFFFFFFFF and is inverted by the caller
/// at the end) over the first bytes of `bytes`, a multiple of 16 of them, and returns how many it consumed: 0 when
/// `length` is below 64 or the instructions are missing. The caller goes on from there with its table.
size_t ccrc32_fold(uint32_t *state, const void *bytes, size_t length);

#endif
