#include "CCRC32.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

// Folding constants of the reflected polynomial: x^k mod P(x), bit-reflected and shifted one place, for the
// distances the folds below move 128 bits by (4 x 128 bits, 128 bits, then 64 and 32 bits), and the Barrett
// pair (P(x) itself and floor(x^64 / P(x))) that reduces the last 64 bits to 32.
#define FOLD_BY_FOUR_LOW 0x154442bd4ULL
#define FOLD_BY_FOUR_HIGH 0x1c6e41596ULL
#define FOLD_BY_ONE_LOW 0x1751997d0ULL
#define FOLD_BY_ONE_HIGH 0x0ccaa009eULL
#define FOLD_64_TO_32 0x163cd6124ULL
#define BARRETT_POLYNOMIAL 0x1db710641ULL
#define BARRETT_QUOTIENT 0x1f7011641ULL

int ccrc32_available(void) {
    // Asked once (atomically: two threads asking at once only ask twice and find the same answer).
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
        int found = __get_cpuid(1, &eax, &ebx, &ecx, &edx);
        answer = found && (ecx & bit_PCLMUL) && (ecx & bit_SSE4_1) ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}

/// Multiplies the 128 bits of `value` folded by `constants`: its low half by the constants' low half, its high
/// half by their high half, added (carry-less) to `next`.
__attribute__((target("pclmul,sse4.1"))) static inline __m128i fold(__m128i value, __m128i constants, __m128i next) {
    __m128i low = _mm_clmulepi64_si128(value, constants, 0x00);
    __m128i high = _mm_clmulepi64_si128(value, constants, 0x11);
    return _mm_xor_si128(_mm_xor_si128(low, high), next);
}

__attribute__((target("pclmul,sse4.1"))) static uint32_t fold_blocks(uint32_t state, const uint8_t *bytes, size_t length) {
    // length is a multiple of 16, at least 64. Four lanes of 128 bits; the running CRC enters the first.
    __m128i lane0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)bytes), _mm_cvtsi32_si128((int)state));
    __m128i lane1 = _mm_loadu_si128((const __m128i *)(bytes + 16));
    __m128i lane2 = _mm_loadu_si128((const __m128i *)(bytes + 32));
    __m128i lane3 = _mm_loadu_si128((const __m128i *)(bytes + 48));
    bytes += 64;
    length -= 64;
    const __m128i byFour = _mm_set_epi64x((long long)FOLD_BY_FOUR_HIGH, (long long)FOLD_BY_FOUR_LOW);
    while (length >= 64) {
        lane0 = fold(lane0, byFour, _mm_loadu_si128((const __m128i *)bytes));
        lane1 = fold(lane1, byFour, _mm_loadu_si128((const __m128i *)(bytes + 16)));
        lane2 = fold(lane2, byFour, _mm_loadu_si128((const __m128i *)(bytes + 32)));
        lane3 = fold(lane3, byFour, _mm_loadu_si128((const __m128i *)(bytes + 48)));
        bytes += 64;
        length -= 64;
    }
    // The four lanes into one, then the remaining 16-byte blocks into it.
    const __m128i byOne = _mm_set_epi64x((long long)FOLD_BY_ONE_HIGH, (long long)FOLD_BY_ONE_LOW);
    __m128i value = fold(lane0, byOne, lane1);
    value = fold(value, byOne, lane2);
    value = fold(value, byOne, lane3);
    while (length >= 16) {
        value = fold(value, byOne, _mm_loadu_si128((const __m128i *)bytes));
        bytes += 16;
        length -= 16;
    }
    // 128 bits to 64: the low half moved by 64 bits onto the high half.
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
    __m128i moved = _mm_clmulepi64_si128(value, byOne, 0x10);
    value = _mm_xor_si128(_mm_srli_si128(value, 8), moved);
    // 64 bits to 32 (kept in bits 32..95 of the register).
    const __m128i to32 = _mm_set_epi64x(0, (long long)FOLD_64_TO_32);
    __m128i upper = _mm_srli_si128(value, 4);
    value = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(value, low32), to32, 0x00), upper);
    // Barrett reduction to the 32-bit remainder.
    const __m128i barrett = _mm_set_epi64x((long long)BARRETT_QUOTIENT, (long long)BARRETT_POLYNOMIAL);
    __m128i quotient = _mm_clmulepi64_si128(_mm_and_si128(value, low32), barrett, 0x10);
    __m128i product = _mm_clmulepi64_si128(_mm_and_si128(quotient, low32), barrett, 0x00);
    value = _mm_xor_si128(value, product);
    return (uint32_t)_mm_extract_epi32(value, 1);
}

size_t ccrc32_fold(uint32_t *state, const void *bytes, size_t length) {
    if (length < 64 || !ccrc32_available()) return 0;
    size_t blocks = length & ~(size_t)15;
    *state = fold_blocks(*state, (const uint8_t *)bytes, blocks);
    return blocks;
}

#else

int ccrc32_available(void) { return 0; }

size_t ccrc32_fold(uint32_t *state, const void *bytes, size_t length) {
    (void)state;
    (void)bytes;
    (void)length;
    return 0;
}

#endif
