//go:build !amd64

package vector

// UseAVX512 is a no-op where there are no AVX-512 kernels (see export_amd64_test.go).
func UseAVX512(bool) (restore func(), has bool) { return func() {}, false }
