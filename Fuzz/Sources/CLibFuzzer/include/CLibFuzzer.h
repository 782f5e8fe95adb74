#ifndef TRELLIS_CLIBFUZZER_H
#define TRELLIS_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver with the input callback as an argument (LLVM 13 and later), so
/// one binary holds every target and its argument picks which one runs.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
