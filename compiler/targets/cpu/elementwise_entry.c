#include "compiler/targets/cpu/elementwise_entry.h"

#include <inttypes.h>
#include <string.h>

#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/structured.h"
#include "compiler/targets/cpu/epilogue.h"

// Elements per workgroup, at least: enough that claiming a workgroup costs
// little against its loop, few enough that a 56 x 56 x 64 activation still
// spreads over several workgroups per thread.
#define KILN_CPU_ELEMENTWISE_MIN_ELEMENTS 16384

bool kiln_cpu_match_elementwise(kiln_ir_context_t* context,
                                kiln_ir_op_t* region,
                                kiln_cpu_elementwise_t* out) {
  memset(out, 0, sizeof(*out));
  // Without a kernel op the root is the returned op itself; it must be
  // elementwise (kiln_cpu_epilogue_build checks every op of the region).
  kiln_ir_op_t* root = kiln_cpu_epilogue_root(context, region);
  if (!root || !kiln_ir_op_is(root, "linalg.generic")) return false;
  kiln_structured_op_t s;
  if (!kiln_structured_op_try_get(context, root, &s)) return false;
  if (!kiln_structured_is_elementwise(&s)) return false;
  const kiln_ir_type_t* rt = root->results[0].type;
  if (!kiln_cpu_is_static_f32_tensor(rt, -1)) return false;
  int64_t rows = 1, cols = 1;
  for (size_t d = 0; d < rt->shaped.rank; ++d) {
    if (d + 1 == rt->shaped.rank) {
      cols = rt->shaped.dims[d];
    } else {
      rows *= rt->shaped.dims[d];
    }
  }
  if (rows < 1 || cols < 1) return false;
  bool ok = false;
  const char* body = kiln_cpu_epilogue_build(context, region, NULL, &ok);
  if (!ok || !body) return false;
  out->result = rt;
  out->rows = rows;
  out->cols = cols;
  int64_t rpw = (KILN_CPU_ELEMENTWISE_MIN_ELEMENTS + cols - 1) / cols;
  out->rows_per_workgroup = rpw < rows ? rpw : rows;
  out->out_binding = kiln_dispatch_num_tensor_operands(region);
  out->body = body;
  return true;
}

void kiln_cpu_elementwise_workgroups(const kiln_cpu_elementwise_t* e,
                                     int64_t out_count[3]) {
  out_count[0] = (e->rows + e->rows_per_workgroup - 1) / e->rows_per_workgroup;
  out_count[1] = 1;
  out_count[2] = 1;
}

void kiln_cpu_emit_elementwise_entry(const kiln_cpu_elementwise_t* e,
                                     const char* c_name,
                                     kiln_ir_string_builder_t* out) {
  // Captured tensors come first among the bindings; the result is last.
  kiln_ir_sb_printf(
      out,
      "// f32 elementwise, %" PRId64 " rows of %" PRId64
      ": unit-stride row loops.\n"
      "int %s(const kiln_hal_executable_environment_v1_t* env,\n"
      "    const kiln_hal_executable_dispatch_state_v1_t* ds,\n"
      "    const kiln_hal_executable_workgroup_state_v1_t* wg) {\n"
      "  (void)env;\n"
      "  if (ds->binding_count <= %u) return KILN_CPU_FAIL_BINDING;\n"
      "  const int64_t R = %" PRId64 ", RB = %" PRId64
      ";\n"
      "  const int64_t BS_ = %" PRId64 ", RS_ = %" PRId64
      ", b = 0;\n"
      "  const int64_t r0 = (int64_t)wg->workgroup_id_x * RB;\n"
      "  if (r0 >= R) return 0;\n"
      "  const int64_t r1 = R - r0 < RB ? R : r0 + RB;\n"
      "  float* const eo = (float*)ds->binding_ptrs[%u];\n"
      "  for (int64_t r = r0; r < r1; ++r) {\n",
      e->rows, e->cols, c_name, e->out_binding, e->rows, e->rows_per_workgroup,
      e->rows * e->cols, e->cols, e->out_binding);
  kiln_cpu_epilogue_emit_rows(e->result, e->rows, e->cols, e->body, out);
}
