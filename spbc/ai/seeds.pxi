# The agent seeds of spbc.ai.seeds in C, for the C loop (included by fastplay.pyx): BLAKE2b (RFC 7693) of
# one 8-byte message, unkeyed, an 8-byte digest, the index as the salt and spbc.ai.seeds.PERSON as the
# personalisation. One block, so one compression; tests/test_seeds.py holds it to hashlib's.

cdef uint64_t[8] _B2_IV = [
    0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL, 0x3C6EF372FE94F82BULL, 0xA54FF53A5F1D36F1ULL,
    0x510E527FADE682D1ULL, 0x9B05688C2B3E6C1FULL, 0x1F83D9ABFB41BD6BULL, 0x5BE0CD19137E2179ULL,
]
cdef unsigned char[12][16] _B2_SIGMA = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
]
# the parameter block's first word (digest length 8, no key, fanout 1, depth 1) and its last two, PERSON
# ("spbc agent seed") as little-endian words
cdef uint64_t _B2_PARAM0 = 0x01010008ULL
cdef uint64_t _B2_PERSON0 = 0x6567612063627073ULL
cdef uint64_t _B2_PERSON1 = 0x6465657320746EULL


cdef inline uint64_t _rotr(uint64_t x, int n) noexcept nogil:
    return (x >> n) | (x << (64 - n))


cdef inline void _b2_mix(uint64_t* v, int a, int b, int c, int d, uint64_t x, uint64_t y) noexcept nogil:
    v[a] = v[a] + v[b] + x
    v[d] = _rotr(v[d] ^ v[a], 32)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 24)
    v[a] = v[a] + v[b] + y
    v[d] = _rotr(v[d] ^ v[a], 16)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 63)


cdef uint64_t _agent_seed(uint64_t base, uint64_t index) noexcept nogil:
    """spbc.ai.seeds.agent_seed(base, index): the first word of BLAKE2b's state after its one compression."""
    cdef uint64_t h[8]
    cdef uint64_t v[16]
    cdef uint64_t m[16]
    cdef int i, r
    cdef const unsigned char* s
    for i in range(8):
        h[i] = _B2_IV[i]
    h[0] ^= _B2_PARAM0
    h[4] ^= index  # the salt: the index's 8 bytes, then 8 zero bytes
    h[6] ^= _B2_PERSON0
    h[7] ^= _B2_PERSON1
    memset(m, 0, sizeof(m))
    m[0] = base
    for i in range(8):
        v[i] = h[i]
        v[i + 8] = _B2_IV[i]
    v[12] ^= <uint64_t>8  # the bytes hashed
    v[14] = ~v[14]  # the last block
    for r in range(12):
        s = _B2_SIGMA[r]
        _b2_mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]])
        _b2_mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]])
        _b2_mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]])
        _b2_mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]])
        _b2_mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]])
        _b2_mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]])
        _b2_mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]])
        _b2_mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]])
    return h[0] ^ v[0] ^ v[8]


def agent_seed(base, index):
    """spbc.ai.seeds.agent_seed as the C loop computes it (for the tests that hold the two equal)."""
    return _agent_seed(<uint64_t>(base & 0xFFFFFFFFFFFFFFFF), <uint64_t>(index & 0xFFFFFFFFFFFFFFFF))
