#include "textflag.h"

// func dotFMA(a, b *float32, n int) float32
// Four 8-lane FMA accumulators over 32 floats per step, then 8 at a time, then one at a time.
TEXT ·dotFMA(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

loop32:
	CMPQ CX, $32
	JL   loop8
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  loop32

loop8:
	CMPQ CX, $8
	JL   reduce
	VMOVUPS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  loop8

reduce:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0

tail:
	CMPQ CX, $0
	JE   done
	VMOVSS (SI), X1
	VFMADD231SS (DI), X1, X0
	ADDQ $4, SI
	ADDQ $4, DI
	DECQ CX
	JMP  tail

done:
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func prefetchRows(base unsafe.Pointer, ids *uint32, n int, rowBytes int, lines int)
// Issues PREFETCHT0 for the first `lines` cache lines of each listed row, so the rows of a
// node's neighbours stream in together instead of one cache miss after another.
TEXT ·prefetchRows(SB), NOSPLIT, $0-40
	MOVQ base+0(FP), SI
	MOVQ ids+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ rowBytes+24(FP), DX
	MOVQ lines+32(FP), R8

rows:
	CMPQ CX, $0
	JE   done
	MOVL (DI), AX
	IMULQ DX, AX
	LEAQ (SI)(AX*1), BX
	MOVQ R8, R9

lines:
	PREFETCHT0 (BX)
	ADDQ $64, BX
	DECQ R9
	JNZ  lines
	ADDQ $4, DI
	DECQ CX
	JMP  rows

done:
	RET

// func dotHalfFMA(a *float32, b *uint16, n int) float32
// n must be a multiple of 8. VCVTPH2PS widens 8 halves to 8 floats on the way into the FMA.
TEXT ·dotHalfFMA(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

hloop32:
	CMPQ CX, $32
	JL   hloop8
	VCVTPH2PS (DI), Y4
	VCVTPH2PS 16(DI), Y5
	VCVTPH2PS 32(DI), Y6
	VCVTPH2PS 48(DI), Y7
	VFMADD231PS (SI), Y4, Y0
	VFMADD231PS 32(SI), Y5, Y1
	VFMADD231PS 64(SI), Y6, Y2
	VFMADD231PS 96(SI), Y7, Y3
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $32, CX
	JMP  hloop32

hloop8:
	CMPQ CX, $8
	JL   hreduce
	VCVTPH2PS (DI), Y4
	VFMADD231PS (SI), Y4, Y0
	ADDQ $32, SI
	ADDQ $16, DI
	SUBQ $8, CX
	JMP  hloop8

hreduce:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotHalvesFMA(a, b *uint16, n int) float32
// n must be a multiple of 8: both operands are widened from halves.
TEXT ·dotHalvesFMA(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

hh16:
	CMPQ CX, $16
	JL   hh8
	VCVTPH2PS (SI), Y4
	VCVTPH2PS 16(SI), Y5
	VCVTPH2PS (DI), Y6
	VCVTPH2PS 16(DI), Y7
	VFMADD231PS Y6, Y4, Y0
	VFMADD231PS Y7, Y5, Y1
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $16, CX
	JMP  hh16

hh8:
	CMPQ CX, $8
	JL   hhreduce
	VCVTPH2PS (SI), Y4
	VCVTPH2PS (DI), Y6
	VFMADD231PS Y6, Y4, Y0
	ADDQ $16, SI
	ADDQ $16, DI
	SUBQ $8, CX
	JMP  hh8

hhreduce:
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotInt8FMA(a *float32, c *int8, n int) float32
// n must be a multiple of 8. VPMOVSXBD widens 8 signed bytes to 8 int32s, VCVTDQ2PS makes
// them floats for the FMA.
TEXT ·dotInt8FMA(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ c+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

bloop32:
	CMPQ CX, $32
	JL   bloop8
	VPMOVSXBD (DI), Y4
	VPMOVSXBD 8(DI), Y5
	VPMOVSXBD 16(DI), Y6
	VPMOVSXBD 24(DI), Y7
	VCVTDQ2PS Y4, Y4
	VCVTDQ2PS Y5, Y5
	VCVTDQ2PS Y6, Y6
	VCVTDQ2PS Y7, Y7
	VFMADD231PS (SI), Y4, Y0
	VFMADD231PS 32(SI), Y5, Y1
	VFMADD231PS 64(SI), Y6, Y2
	VFMADD231PS 96(SI), Y7, Y3
	ADDQ $128, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  bloop32

bloop8:
	CMPQ CX, $8
	JL   breduce
	VPMOVSXBD (DI), Y4
	VCVTDQ2PS Y4, Y4
	VFMADD231PS (SI), Y4, Y0
	ADDQ $32, SI
	ADDQ $8, DI
	SUBQ $8, CX
	JMP  bloop8

breduce:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotHalfAVX512(a *float32, b *uint16, n int) float32
// n must be a multiple of 16. The AVX-512 form of dotHalfFMA: VCVTPH2PS widens 16 halves
// (one 256-bit load) to a 512-bit register, so one step of four accumulators covers 64
// dimensions (384 dims: six steps, no 8-wide tail).
TEXT ·dotHalfAVX512(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Z0, Z0, Z0
	VXORPS Z1, Z1, Z1
	VXORPS Z2, Z2, Z2
	VXORPS Z3, Z3, Z3

zloop64:
	CMPQ CX, $64
	JL   zloop16
	VCVTPH2PS (DI), Z4
	VCVTPH2PS 32(DI), Z5
	VCVTPH2PS 64(DI), Z6
	VCVTPH2PS 96(DI), Z7
	VFMADD231PS (SI), Z4, Z0
	VFMADD231PS 64(SI), Z5, Z1
	VFMADD231PS 128(SI), Z6, Z2
	VFMADD231PS 192(SI), Z7, Z3
	ADDQ $256, SI
	ADDQ $128, DI
	SUBQ $64, CX
	JMP  zloop64

zloop16:
	CMPQ CX, $16
	JL   zreduce
	VCVTPH2PS (DI), Z4
	VFMADD231PS (SI), Z4, Z0
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $16, CX
	JMP  zloop16

zreduce:
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotHalvesAVX512(a, b *uint16, n int) float32
// n must be a multiple of 16: both operands are widened from halves, 16 at a time.
TEXT ·dotHalvesAVX512(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Z0, Z0, Z0
	VXORPS Z1, Z1, Z1

zh32:
	CMPQ CX, $32
	JL   zh16
	VCVTPH2PS (SI), Z4
	VCVTPH2PS 32(SI), Z5
	VCVTPH2PS (DI), Z6
	VCVTPH2PS 32(DI), Z7
	VFMADD231PS Z6, Z4, Z0
	VFMADD231PS Z7, Z5, Z1
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $32, CX
	JMP  zh32

zh16:
	CMPQ CX, $16
	JL   zhreduce
	VCVTPH2PS (SI), Z4
	VCVTPH2PS (DI), Z6
	VFMADD231PS Z6, Z4, Z0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $16, CX
	JMP  zh16

zhreduce:
	VADDPS Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotInt8AVX512(a *float32, c *int8, n int) float32
// dotInt8FMA on 16 lanes (VPMOVSXBD widens 16 signed bytes into a 512-bit register). n must
// be a multiple of 16.
TEXT ·dotInt8AVX512(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ c+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Z0, Z0, Z0
	VXORPS Z1, Z1, Z1
	VXORPS Z2, Z2, Z2
	VXORPS Z3, Z3, Z3

bzloop64:
	CMPQ CX, $64
	JL   bzloop16
	VPMOVSXBD (DI), Z4
	VPMOVSXBD 16(DI), Z5
	VPMOVSXBD 32(DI), Z6
	VPMOVSXBD 48(DI), Z7
	VCVTDQ2PS Z4, Z4
	VCVTDQ2PS Z5, Z5
	VCVTDQ2PS Z6, Z6
	VCVTDQ2PS Z7, Z7
	VFMADD231PS (SI), Z4, Z0
	VFMADD231PS 64(SI), Z5, Z1
	VFMADD231PS 128(SI), Z6, Z2
	VFMADD231PS 192(SI), Z7, Z3
	ADDQ $256, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  bzloop64

bzloop16:
	CMPQ CX, $16
	JL   bzreduce
	VPMOVSXBD (DI), Z4
	VCVTDQ2PS Z4, Z4
	VFMADD231PS (SI), Z4, Z0
	ADDQ $64, SI
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  bzloop16

bzreduce:
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotInt8sAVX2(a, b *int8, n int) int32
// The integer inner product of two code vectors: VPMOVSXBW widens 16 signed bytes to 16
// int16s, VPMADDWD multiplies them and adds neighbouring pairs into 8 int32s. n must be a
// multiple of 16 (and below 2^17, so the sums cannot overflow).
TEXT ·dotInt8sAVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1

iloop32:
	CMPQ CX, $32
	JL   iloop16
	VPMOVSXBW (SI), Y2
	VPMOVSXBW (DI), Y3
	VPMADDWD Y3, Y2, Y2
	VPADDD Y2, Y0, Y0
	VPMOVSXBW 16(SI), Y4
	VPMOVSXBW 16(DI), Y5
	VPMADDWD Y5, Y4, Y4
	VPADDD Y4, Y1, Y1
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  iloop32

iloop16:
	CMPQ CX, $16
	JL   ireduce
	VPMOVSXBW (SI), Y2
	VPMOVSXBW (DI), Y3
	VPMADDWD Y3, Y2, Y2
	VPADDD Y2, Y0, Y0
	ADDQ $16, SI
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  iloop16

ireduce:
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	VZEROUPPER
	MOVL AX, ret+24(FP)
	RET

// func dotInt8sAVX512(a, b *int8, n int) int32
// dotInt8sAVX2 on 512-bit registers: 32 bytes widened per step. n must be a multiple of 32
// (and below 2^17).
TEXT ·dotInt8sAVX512(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1

izloop64:
	CMPQ CX, $64
	JL   izloop32
	VPMOVSXBW (SI), Z2
	VPMOVSXBW (DI), Z3
	VPMADDWD Z3, Z2, Z2
	VPADDD Z2, Z0, Z0
	VPMOVSXBW 32(SI), Z4
	VPMOVSXBW 32(DI), Z5
	VPMADDWD Z5, Z4, Z4
	VPADDD Z4, Z1, Z1
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  izloop64

izloop32:
	CMPQ CX, $32
	JL   izreduce
	VPMOVSXBW (SI), Z2
	VPMOVSXBW (DI), Z3
	VPMADDWD Z3, Z2, Z2
	VPADDD Z2, Z0, Z0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  izloop32

izreduce:
	VPADDD Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	VZEROUPPER
	MOVL AX, ret+24(FP)
	RET

// func dotInt16x8AVX512(q *int16, c *int8, n int) int32
// The integer inner product of a query's 16-bit codes and a row of 8-bit codes: VPMOVSXBW
// widens 32 codes to 16 bits, VPMADDWD multiplies them with 32 query codes and adds
// neighbouring pairs into 16 int32s. n must be a multiple of 32.
TEXT ·dotInt16x8AVX512(SB), NOSPLIT, $0-28
	MOVQ q+0(FP), SI
	MOVQ c+8(FP), DI
	MOVQ n+16(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1

wzloop64:
	CMPQ CX, $64
	JL   wzloop32
	VPMOVSXBW (DI), Z2
	VPMOVSXBW 32(DI), Z3
	VPMADDWD (SI), Z2, Z2
	VPMADDWD 64(SI), Z3, Z3
	VPADDD Z2, Z0, Z0
	VPADDD Z3, Z1, Z1
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  wzloop64

wzloop32:
	CMPQ CX, $32
	JL   wzreduce
	VPMOVSXBW (DI), Z2
	VPMADDWD (SI), Z2, Z2
	VPADDD Z2, Z0, Z0
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  wzloop32

wzreduce:
	VPADDD Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	VZEROUPPER
	MOVL AX, ret+24(FP)
	RET

// func dotInt16x8AVX2(q *int16, c *int8, n int) int32
// dotInt16x8AVX512 on 256-bit registers. n must be a multiple of 16.
TEXT ·dotInt16x8AVX2(SB), NOSPLIT, $0-28
	MOVQ q+0(FP), SI
	MOVQ c+8(FP), DI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1

wyloop32:
	CMPQ CX, $32
	JL   wyloop16
	VPMOVSXBW (DI), Y2
	VPMOVSXBW 16(DI), Y3
	VPMADDWD (SI), Y2, Y2
	VPMADDWD 32(SI), Y3, Y3
	VPADDD Y2, Y0, Y0
	VPADDD Y3, Y1, Y1
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  wyloop32

wyloop16:
	CMPQ CX, $16
	JL   wyreduce
	VPMOVSXBW (DI), Y2
	VPMADDWD (SI), Y2, Y2
	VPADDD Y2, Y0, Y0
	ADDQ $32, SI
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  wyloop16

wyreduce:
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	VZEROUPPER
	MOVL AX, ret+24(FP)
	RET
