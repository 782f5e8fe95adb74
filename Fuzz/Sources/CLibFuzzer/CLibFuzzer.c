#include "CLibFuzzer.h"

#include <stdio.h>
#include <stdlib.h>

// libFuzzer's own main() is linked in with -sanitize=fuzzer and refers to this
// symbol, but never runs: SwiftPM points `main` at the executable's top-level code,
// which calls LLVMFuzzerRunDriver with the chosen target's callback instead.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    (void)data;
    (void)size;
    fputs("trellis-fuzz: the target's callback is passed to LLVMFuzzerRunDriver, not called here\n", stderr);
    abort();
}
