package known

import "math/bits"

// sipHash is SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast
// short-input PRF", 2012) of msg under the 128-bit key k0, k1: the keyed
// hash that values learnt from files and tool output are kept as.
//
// Why a small function and not crypto/sha256 or crypto/hmac: the per-call
// hooks link no crypto package (every hook process would pay its package
// initialisation, and the link rule in .golangci.yml forbids it), and
// SipHash is the PRF made for exactly this: short inputs under a secret
// key, one hash per candidate window. hash/maphash is not stable across
// processes and FNV takes no key.
func sipHash(k0, k1 uint64, msg string) uint64 {
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13)
		v1 ^= v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17)
		v1 ^= v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	n := len(msg)
	for len(msg) >= 8 {
		m := le64(msg)
		v3 ^= m
		round()
		round()
		v0 ^= m
		msg = msg[8:]
	}
	last := uint64(n) << 56
	for i := len(msg) - 1; i >= 0; i-- {
		last |= uint64(msg[i]) << (8 * uint(i))
	}
	v3 ^= last
	round()
	round()
	v0 ^= last
	v2 ^= 0xff
	round()
	round()
	round()
	round()
	return v0 ^ v1 ^ v2 ^ v3
}

// le64 reads the first 8 bytes of s as a little-endian number.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
