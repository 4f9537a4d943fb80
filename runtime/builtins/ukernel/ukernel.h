// kiln's packed matmul micro-kernels, as the runtime calls them (generated
// code reaches the same functions through the executable imports named in
// ukernel_abi.h). The kernels allocate nothing, use no globals and no libc,
// and are reentrant: calls on disjoint outputs may run concurrently.
#ifndef KILN_RUNTIME_BUILTINS_UKERNEL_UKERNEL_H_
#define KILN_RUNTIME_BUILTINS_UKERNEL_UKERNEL_H_

#include "runtime/builtins/ukernel/ukernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

// Runs mmt4d over all M1 x N1 tiles of |params|. Returns KILN_UKERNEL_OK or
// KILN_UKERNEL_ERROR_INVALID_ARGUMENT (nothing written) for an unknown type
// or flag, a non-zero reserved field, tile sizes outside 1..64 (M0 * N0 <=
// 1024), negative sizes, sizes or strides above 2^40, strides below the
// packed extents or NULL pointers with non-empty sizes.
int kiln_ukernel_mmt4d(const kiln_ukernel_mmt4d_params_t* params);

// Packs / unpacks (see the structs in ukernel_abi.h); same return values.
int kiln_ukernel_pack(const kiln_ukernel_pack_params_t* params);
int kiln_ukernel_unpack(const kiln_ukernel_unpack_params_t* params);
// Packs im2col tiles of a convolution window (see the struct); same return
// values (negative offsets are the caller's to keep inside the image).
int kiln_ukernel_pack_window(const kiln_ukernel_pack_window_params_t* params);
// Winograd F(4x4, 3x3) input / output transforms (see the structs).
int kiln_ukernel_winograd_input(
    const kiln_ukernel_winograd_input_params_t* params);
int kiln_ukernel_winograd_output(
    const kiln_ukernel_winograd_output_params_t* params);

// The bias + activation epilogue on a row-major block (see the struct).
int kiln_ukernel_bias_act(const kiln_ukernel_bias_act_params_t* params);

// The import adapters (kiln_hal_executable_import_fn_t): |params| points at
// the kernel's params struct; |context| and |reserved| are unused.
int kiln_ukernel_mmt4d_import(void* context, void* params, void* reserved);
int kiln_ukernel_pack_import(void* context, void* params, void* reserved);
int kiln_ukernel_unpack_import(void* context, void* params, void* reserved);
int kiln_ukernel_pack_window_import(void* context, void* params,
                                    void* reserved);
int kiln_ukernel_winograd_input_import(void* context, void* params,
                                       void* reserved);
int kiln_ukernel_winograd_output_import(void* context, void* params,
                                        void* reserved);
int kiln_ukernel_bias_act_import(void* context, void* params, void* reserved);

// Computes one M0 x N0 OUT tile from one LHS M1 row (K1 x M0 x K0) and one
// RHS N1 row (K1 x N0 x K0); K1, flags and the tile sizes come from |params|.
// Some tile functions apply KILN_UKERNEL_MMT4D_FLAG_BIAS_CLAMP before their
// store, reading the bias at params->bias (their own first column), and some
// leave it to kiln_ukernel_mmt4d: call them through kiln_ukernel_mmt4d.
typedef void (*kiln_ukernel_mmt4d_tile_fn_t)(
    void* out_tile, const void* lhs_panel, const void* rhs_panel,
    const kiln_ukernel_mmt4d_params_t* params);

// The tile function mmt4d uses for |type| and tile sizes on a CPU with
// |cpu_features|: the newest ISA variant the features allow, or the portable
// one (which takes any tile). |out_name| (may be NULL) receives a static
// name such as "f32_16x16x1_avx512", so tests can check what ran.
kiln_ukernel_mmt4d_tile_fn_t kiln_ukernel_mmt4d_select(uint32_t type,
                                                       int32_t M0, int32_t N0,
                                                       int32_t K0,
                                                       uint64_t cpu_features,
                                                       const char** out_name);

// The host's KILN_HAL_CPU_FEATURE_* bits from cpuid and xgetbv (AVX and
// AVX-512 bits only when the OS saves their register state).
uint64_t kiln_ukernel_query_host_cpu_features(void);

// Parses an ISA cap name: "generic", "avx2", "avx512", "avx512vnni",
// "avx512bf16" or "native". Returns 0 and sets |*out_isa|, or -1.
int kiln_ukernel_isa_parse(const char* name, uint32_t* out_isa);
// The name of an ISA cap ("native" for unknown values).
const char* kiln_ukernel_isa_name(uint32_t isa);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BUILTINS_UKERNEL_UKERNEL_H_
