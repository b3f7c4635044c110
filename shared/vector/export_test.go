package vector

// DotGeneric exposes the portable kernel so tests check it on machines that run the assembly.
var DotGeneric = dotGeneric

var (
	DotHalfGeneric    = dotHalfGeneric
	ToHalfOne         = toHalf
	FromHalfOne       = fromHalf
	DotInt8Generic    = dotInt8Generic
	DotInt8sGeneric   = dotInt8sGeneric
	DotInt16x8Generic = dotInt16x8Generic
)
