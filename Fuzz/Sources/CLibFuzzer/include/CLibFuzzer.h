// libFuzzer's entry point for programs that have their own `main` (LLVM 11 and later). The Swift toolchain's
// libclang_rt.fuzzer, linked by -sanitize=fuzzer, provides it.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
