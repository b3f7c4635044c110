package vector

// UseAVX512 turns the 16-lane kernels on or off (off: the 8-lane FMA ones) and returns a
// function that restores the CPU's choice, so tests and benchmarks reach every path on a
// machine that has AVX-512. It reports whether the CPU has them at all.
func UseAVX512(on bool) (restore func(), has bool) {
	was := hasAVX512
	hasAVX512 = on && was
	return func() { hasAVX512 = was }, was
}
