// StableHLO data-movement and window ops: pad, reverse, dynamic_slice,
// gather, torch_index_select, scatter, reduce_window, convolution and
// batch_norm_inference. Definitions, verification and the custom forms
// StableHLO prints:
//   stablehlo.pad %x, %v, low = [0, 1], high = [1, 5], interior = [0, 0]
//       : (T, V) -> R
//   stablehlo.reverse %x, dims = [0, 1] : T
//   stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (T, I, I) -> R
//   stablehlo.torch_index_select %x, %i, dim = 0, batch_dims = 0
//       : (T, I) -> R
//   stablehlo.convolution(%x, %w)
//       dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
//       window = {stride = [1, 1], pad = [[0, 0], [0, 0]],
//                 lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
//       {feature_group_count = 1 : i64, batch_group_count = 1 : i64}
//       : (T, K) -> R
// gather, scatter, reduce_window and batch_norm_inference use the generic
// form (as StableHLO prints them). Lowering:
// input/stablehlo/lower_stablehlo_data.c.
#include "compiler/input/stablehlo/stablehlo_data.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/stablehlo/lower_stablehlo.h"
#include "compiler/input/stablehlo/lower_stablehlo_data.h"

#include <stdio.h>
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"

#define KILN_SD_MAX KILN_SHLO_DATA_MAX_RANK

//===----------------------------------------------------------------------===//
// Attribute readers
//===----------------------------------------------------------------------===//

static int64_t kiln_sd_list(const kiln_ir_op_t* op, const char* name,
                            int64_t* out) {
  return kiln_dialect_int_list(kiln_ir_op_get_attr(op, name), out, KILN_SD_MAX);
}

static int64_t kiln_sd_param_int(const kiln_ir_attribute_t* attr,
                                 const char* key, int64_t fallback) {
  const kiln_ir_attribute_t* a = kiln_ir_dialect_attr_param(attr, key);
  return a && a->kind == KILN_IR_ATTR_INTEGER ? a->i : fallback;
}

static int64_t kiln_sd_param_list(const kiln_ir_attribute_t* attr,
                                  const char* key, int64_t* out) {
  const kiln_ir_attribute_t* a = kiln_ir_dialect_attr_param(attr, key);
  return a ? kiln_dialect_int_list(a, out, KILN_SD_MAX) : 0;
}

// One `[b, 0, 1, f]` list of the short form; |a|/|b| are the two letters
// (b/f or i/o) whose positions are returned.
static bool kiln_sd_conv_list(const char** s, const char* end, char la, char lb,
                              int64_t* pa, int64_t* pb, int64_t* spatial,
                              int64_t* num_spatial) {
  const char* p = *s;
  while (p < end && *p == ' ') ++p;
  if (p >= end || *p != '[') return false;
  ++p;
  int64_t pos = 0, count = 0;
  *pa = *pb = -1;
  int64_t order[KILN_SD_MAX];
  bool seen[KILN_SD_MAX] = {false};
  while (p < end && *p != ']') {
    while (p < end && (*p == ' ' || *p == ',')) ++p;
    if (p >= end || *p == ']') break;
    if (pos >= KILN_SD_MAX) return false;
    if (*p == la) {
      *pa = pos;
      ++p;
    } else if (*p == lb) {
      *pb = pos;
      ++p;
    } else if (*p >= '0' && *p <= '9') {
      int64_t v = 0;
      while (p < end && *p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
      if (v >= KILN_SD_MAX || seen[v]) return false;
      seen[v] = true;
      order[v] = pos;
      ++count;
    } else {
      return false;
    }
    ++pos;
  }
  if (p >= end || *p != ']' || *pa < 0 || *pb < 0) return false;
  for (int64_t i = 0; i < count; ++i) {
    if (!seen[i]) return false;
    spatial[i] = order[i];
  }
  *num_spatial = count;
  *s = p + 1;
  return true;
}

bool kiln_stablehlo_conv_dims_from_text(kiln_string_view_t text,
                                        kiln_stablehlo_conv_dims_t* d) {
  memset(d, 0, sizeof(*d));
  const char* s = text.data;
  const char* end = text.data + text.size;
  const char* lt = memchr(s, '<', text.size);
  if (lt) {
    s = lt + 1;
    while (end > s && end[-1] != '>') --end;
    if (end > s) --end;
  }
  int64_t ns_in = 0, ns_k = 0, ns_out = 0;
  if (!kiln_sd_conv_list(&s, end, 'b', 'f', &d->input_batch, &d->input_feature,
                         d->input_spatial, &ns_in)) {
    return false;
  }
  while (s < end && *s == ' ') ++s;
  if (s >= end || *s != 'x') return false;
  ++s;
  if (!kiln_sd_conv_list(&s, end, 'i', 'o', &d->kernel_input_feature,
                         &d->kernel_output_feature, d->kernel_spatial, &ns_k)) {
    return false;
  }
  while (s < end && *s == ' ') ++s;
  if (end - s < 2 || s[0] != '-' || s[1] != '>') return false;
  s += 2;
  if (!kiln_sd_conv_list(&s, end, 'b', 'f', &d->output_batch,
                         &d->output_feature, d->output_spatial, &ns_out)) {
    return false;
  }
  while (s < end && *s == ' ') ++s;
  if (s != end || ns_in != ns_k || ns_in != ns_out) return false;
  d->num_spatial = ns_in;
  return true;
}

bool kiln_stablehlo_conv_dims(const kiln_ir_op_t* op,
                              kiln_stablehlo_conv_dims_t* d) {
  memset(d, 0, sizeof(*d));
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, "dimension_numbers");
  if (!a || a->kind != KILN_IR_ATTR_DIALECT) return false;
  if (!kiln_ir_dialect_attr_param(a, "input_batch_dimension")) {
    return kiln_stablehlo_conv_dims_from_text(a->dialect.text, d);
  }
  d->input_batch = kiln_sd_param_int(a, "input_batch_dimension", -1);
  d->input_feature = kiln_sd_param_int(a, "input_feature_dimension", -1);
  d->kernel_input_feature =
      kiln_sd_param_int(a, "kernel_input_feature_dimension", -1);
  d->kernel_output_feature =
      kiln_sd_param_int(a, "kernel_output_feature_dimension", -1);
  d->output_batch = kiln_sd_param_int(a, "output_batch_dimension", -1);
  d->output_feature = kiln_sd_param_int(a, "output_feature_dimension", -1);
  int64_t ni =
      kiln_sd_param_list(a, "input_spatial_dimensions", d->input_spatial);
  int64_t nk =
      kiln_sd_param_list(a, "kernel_spatial_dimensions", d->kernel_spatial);
  int64_t no =
      kiln_sd_param_list(a, "output_spatial_dimensions", d->output_spatial);
  if (ni < 0 || ni != nk || ni != no || d->input_batch < 0 ||
      d->input_feature < 0 || d->kernel_input_feature < 0 ||
      d->kernel_output_feature < 0 || d->output_batch < 0 ||
      d->output_feature < 0) {
    return false;
  }
  d->num_spatial = ni;
  return true;
}

bool kiln_stablehlo_index_dims(const kiln_ir_op_t* op,
                               kiln_stablehlo_index_dims_t* d) {
  memset(d, 0, sizeof(*d));
  bool scatter = kiln_ir_op_is(op, "stablehlo.scatter");
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(
      op, scatter ? "scatter_dimension_numbers" : "dimension_numbers");
  if (!a || a->kind != KILN_IR_ATTR_DIALECT || !a->dialect.structured) {
    return false;
  }
  d->num_window = kiln_sd_param_list(
      a, scatter ? "update_window_dims" : "offset_dims", d->window);
  d->num_inserted = kiln_sd_param_list(
      a, scatter ? "inserted_window_dims" : "collapsed_slice_dims",
      d->inserted);
  d->num_operand_batching =
      kiln_sd_param_list(a, "operand_batching_dims", d->operand_batching);
  d->num_indices_batching = kiln_sd_param_list(
      a,
      scatter ? "scatter_indices_batching_dims" : "start_indices_batching_dims",
      d->indices_batching);
  d->num_to_operand = kiln_sd_param_list(
      a, scatter ? "scatter_dims_to_operand_dims" : "start_index_map",
      d->to_operand);
  // StableHLO omits index_vector_dim when it has its default, 0.
  d->index_vector_dim = kiln_sd_param_int(a, "index_vector_dim", 0);
  return d->num_window >= 0 && d->num_inserted >= 0 &&
         d->num_operand_batching >= 0 && d->num_indices_batching >= 0 &&
         d->num_to_operand >= 0 && d->index_vector_dim >= 0 &&
         d->num_operand_batching == d->num_indices_batching;
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_sd_verify_pad(kiln_ir_context_t* ctx,
                                        kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(ctx, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* pv = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  int64_t lo[KILN_SD_MAX], hi[KILN_SD_MAX], in_[KILN_SD_MAX];
  int64_t nl = kiln_sd_list(op, "edge_padding_low", lo);
  int64_t nh = kiln_sd_list(op, "edge_padding_high", hi);
  int64_t ni = kiln_sd_list(op, "interior_padding", in_);
  size_t rank = in->shaped.rank;
  if (nl != (int64_t)rank || nh != (int64_t)rank || ni != (int64_t)rank ||
      rt->shaped.rank != rank) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "requires edge_padding_low, "
                                 "edge_padding_high and interior_padding of "
                                 "rank %zu",
                                 rank);
  }
  if (pv->shaped.rank != 0 || pv->shaped.element != in->shaped.element ||
      rt->shaped.element != in->shaped.element) {
    return kiln_ir_op_emit_error(
        op, ctx, "padding value must be a rank-0 tensor of the element type");
  }
  for (size_t d = 0; d < rank; ++d) {
    if (in_[d] < 0) {
      return kiln_ir_op_emit_error(
          op, ctx, "interior padding of dim %zu is negative", d);
    }
    int64_t n = in->shaped.dims[d];
    if (n == KILN_IR_DYNAMIC_DIM || rt->shaped.dims[d] == KILN_IR_DYNAMIC_DIM) {
      continue;  // sized at run time
    }
    int64_t size = lo[d] + hi[d] + n + (n > 0 ? (n - 1) * in_[d] : 0);
    if (size != rt->shaped.dims[d]) {
      return kiln_ir_op_emit_error(op, ctx, "result dim %zu must be %lld", d,
                                   (long long)size);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_sd_verify_reverse(kiln_ir_context_t* ctx,
                                            kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(ctx, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  int64_t dims[KILN_SD_MAX];
  int64_t n = kiln_sd_list(op, "dimensions", dims);
  if (n < 0) {
    return kiln_ir_op_emit_error(
        op, ctx, "requires an i64 array attribute 'dimensions'");
  }
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i] < 0 || (size_t)dims[i] >= in->shaped.rank) {
      return kiln_ir_op_emit_error(op, ctx, "dimension %lld is out of range",
                                   (long long)dims[i]);
    }
  }
  if (op->results[0].type != in) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "result type must match the operand type");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_sd_verify_dynamic_slice(kiln_ir_context_t* ctx,
                                                  kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(ctx, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  size_t rank = in->shaped.rank;
  int64_t sizes[KILN_SD_MAX];
  int64_t n = kiln_sd_list(op, "slice_sizes", sizes);
  if (kiln_ir_op_num_regular_operands(op) != rank + 1 || n != (int64_t)rank ||
      rt->shaped.rank != rank) {
    return kiln_ir_op_emit_error(
        op, ctx, "expects the operand, %zu start indices and slice_sizes",
        rank);
  }
  for (size_t d = 0; d < rank; ++d) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, (uint32_t)d + 1)->type;
    if (t->shaped.rank != 0 ||
        t->shaped.element->kind != KILN_IR_TYPE_INTEGER) {
      return kiln_ir_op_emit_error(
          op, ctx, "start index #%zu must be a rank-0 integer tensor", d);
    }
    // A dynamic operand dim is checked at run time (the lowering asserts
    // it holds the slice).
    if (sizes[d] < 0 ||
        (in->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
         sizes[d] > in->shaped.dims[d]) ||
        rt->shaped.dims[d] != sizes[d]) {
      return kiln_ir_op_emit_error(op, ctx, "invalid slice size in dim %zu", d);
    }
  }
  return kiln_ok_status();
}

bool kiln_stablehlo_torch_index_select_dims(kiln_ir_op_t* op, int64_t* dim,
                                            int64_t* batch_dims) {
  const kiln_ir_attribute_t* d = kiln_ir_op_get_attr(op, "dim");
  const kiln_ir_attribute_t* bd = kiln_ir_op_get_attr(op, "batch_dims");
  if (!d || d->kind != KILN_IR_ATTR_INTEGER || !bd ||
      bd->kind != KILN_IR_ATTR_INTEGER || op->num_operands < 2) {
    return false;
  }
  *dim = d->i < 0 ? d->i + (int64_t)kiln_ir_op_operand(op, 0)->type->shaped.rank
                  : d->i;
  *batch_dims =
      bd->i < 0 ? bd->i + (int64_t)kiln_ir_op_operand(op, 1)->type->shaped.rank
                : bd->i;
  return true;
}

static kiln_status_t kiln_sd_verify_torch_index_select(kiln_ir_context_t* ctx,
                                                       kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(ctx, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* idx = kiln_ir_op_operand(op, 1)->type;
  int64_t dim = 0, bd = 0;
  if (!kiln_stablehlo_torch_index_select_dims(op, &dim, &bd) || dim < 0 ||
      (size_t)dim >= in->shaped.rank || bd < 0 || bd > dim ||
      (size_t)bd > idx->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, ctx, "requires integer attributes 'dim' and 'batch_dims' in range");
  }
  if (idx->shaped.element->kind != KILN_IR_TYPE_INTEGER) {
    return kiln_ir_op_emit_error(op, ctx, "index must be an integer tensor");
  }
  size_t want = in->shaped.rank - 1 + idx->shaped.rank - (size_t)bd;
  if (op->results[0].type->shaped.rank != want) {
    return kiln_ir_op_emit_error(op, ctx, "result must have rank %zu", want);
  }
  return kiln_ok_status();
}

// Dimension lists of gather and scatter index fixed-size arrays in the
// lowering: every entry is checked here, against the StableHLO spec's
// constraints, so that the lowering can trust them.

// Whether |dims[0..n)| are distinct and in [0, rank).
static bool kiln_sd_dims_valid(const int64_t* dims, int64_t n, size_t rank) {
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i] < 0 || (uint64_t)dims[i] >= rank) return false;
    for (int64_t j = 0; j < i; ++j) {
      if (dims[j] == dims[i]) return false;
    }
  }
  return true;
}

static bool kiln_sd_dims_contain(const int64_t* dims, int64_t n, int64_t d) {
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i] == d) return true;
  }
  return false;
}

// Static sizes must match; a dynamic one matches anything.
static bool kiln_sd_dim_matches(int64_t a, int64_t b) {
  return a == KILN_IR_DYNAMIC_DIM || b == KILN_IR_DYNAMIC_DIM || a == b;
}

// Names the list in errors: gather and scatter spell the fields differently.
typedef struct kiln_sd_index_names_t {
  const char* window;
  const char* inserted;
  const char* operand_batching;
  const char* indices_batching;
  const char* to_operand;
  const char* operand;
  const char* indices;
} kiln_sd_index_names_t;

static const kiln_sd_index_names_t kiln_sd_gather_names = {
    "offset_dims",           "collapsed_slice_dims",
    "operand_batching_dims", "start_indices_batching_dims",
    "start_index_map",       "operand",
    "start_indices"};

static const kiln_sd_index_names_t kiln_sd_scatter_names = {
    "update_window_dims",
    "inserted_window_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
    "scatter_dims_to_operand_dims",
    "input",
    "scatter_indices"};

// The constraints gather and scatter share: the dimensions the index vector
// maps to, the batching dimensions and index_vector_dim, against the operand
// (first input) and the indices.
static kiln_status_t kiln_sd_verify_index_dims(
    kiln_ir_context_t* ctx, kiln_ir_op_t* op, const kiln_sd_index_names_t* n,
    const kiln_stablehlo_index_dims_t* d, const kiln_ir_type_t* operand,
    const kiln_ir_type_t* indices) {
  size_t operand_rank = operand->shaped.rank;
  size_t indices_rank = indices->shaped.rank;
  if (operand_rank > KILN_SD_MAX || indices_rank > KILN_SD_MAX) {
    return kiln_ir_op_emit_error(op, ctx, "%s and %s must have rank <= %d",
                                 n->operand, n->indices, KILN_SD_MAX);
  }
  if (indices->shaped.element->kind != KILN_IR_TYPE_INTEGER &&
      indices->shaped.element->kind != KILN_IR_TYPE_INDEX) {
    return kiln_ir_op_emit_error(op, ctx, "%s must be an integer tensor",
                                 n->indices);
  }
  if (d->index_vector_dim < 0 || (uint64_t)d->index_vector_dim > indices_rank) {
    return kiln_ir_op_emit_error(
        op, ctx, "index_vector_dim %lld is out of range for rank-%zu %s",
        (long long)d->index_vector_dim, indices_rank, n->indices);
  }
  if (!kiln_sd_dims_valid(d->inserted, d->num_inserted, operand_rank)) {
    return kiln_ir_op_emit_error(
        op, ctx, "%s must be distinct dimensions of the rank-%zu %s",
        n->inserted, operand_rank, n->operand);
  }
  if (!kiln_sd_dims_valid(d->operand_batching, d->num_operand_batching,
                          operand_rank)) {
    return kiln_ir_op_emit_error(
        op, ctx, "%s must be distinct dimensions of the rank-%zu %s",
        n->operand_batching, operand_rank, n->operand);
  }
  for (int64_t i = 0; i < d->num_operand_batching; ++i) {
    if (kiln_sd_dims_contain(d->inserted, d->num_inserted,
                             d->operand_batching[i])) {
      return kiln_ir_op_emit_error(op, ctx, "%s and %s share dimension %lld",
                                   n->inserted, n->operand_batching,
                                   (long long)d->operand_batching[i]);
    }
  }
  if (!kiln_sd_dims_valid(d->indices_batching, d->num_indices_batching,
                          indices_rank) ||
      kiln_sd_dims_contain(d->indices_batching, d->num_indices_batching,
                           d->index_vector_dim)) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "%s must be distinct dimensions of the rank-%zu %s other than "
        "index_vector_dim",
        n->indices_batching, indices_rank, n->indices);
  }
  for (int64_t i = 0; i < d->num_operand_batching; ++i) {
    if (!kiln_sd_dim_matches(operand->shaped.dims[d->operand_batching[i]],
                             indices->shaped.dims[d->indices_batching[i]])) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "%s and %s must name dimensions of the "
                                   "same sizes",
                                   n->operand_batching, n->indices_batching);
    }
  }
  int64_t index_vector_size = (uint64_t)d->index_vector_dim < indices_rank
                                  ? indices->shaped.dims[d->index_vector_dim]
                                  : 1;
  if (!kiln_sd_dim_matches(index_vector_size, d->num_to_operand)) {
    return kiln_ir_op_emit_error(
        op, ctx, "%s has %lld entries; the index vector has %lld",
        n->to_operand, (long long)d->num_to_operand,
        (long long)index_vector_size);
  }
  if (!kiln_sd_dims_valid(d->to_operand, d->num_to_operand, operand_rank)) {
    return kiln_ir_op_emit_error(
        op, ctx, "%s must be distinct dimensions of the rank-%zu %s",
        n->to_operand, operand_rank, n->operand);
  }
  for (int64_t i = 0; i < d->num_to_operand; ++i) {
    if (kiln_sd_dims_contain(d->operand_batching, d->num_operand_batching,
                             d->to_operand[i])) {
      return kiln_ir_op_emit_error(op, ctx, "%s and %s share dimension %lld",
                                   n->to_operand, n->operand_batching,
                                   (long long)d->to_operand[i]);
    }
  }
  if ((uint64_t)(d->num_window + d->num_inserted + d->num_operand_batching) !=
      operand_rank) {
    return kiln_ir_op_emit_error(
        op, ctx, "%s, %s and %s must together have %zu entries (the %s rank)",
        n->window, n->inserted, n->operand_batching, operand_rank, n->operand);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_sd_verify_gather(kiln_ir_context_t* ctx,
                                           kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(ctx, op));
  kiln_stablehlo_index_dims_t d;
  if (!kiln_stablehlo_index_dims(op, &d)) {
    return kiln_ir_op_emit_error(
        op, ctx, "requires a valid #stablehlo.gather<...> dimension_numbers");
  }
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* idx = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  KILN_RETURN_IF_ERROR(
      kiln_sd_verify_index_dims(ctx, op, &kiln_sd_gather_names, &d, in, idx));
  int64_t sizes[KILN_SD_MAX];
  if (kiln_sd_list(op, "slice_sizes", sizes) != (int64_t)in->shaped.rank) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "slice_sizes must have one entry per operand "
                                 "dim");
  }
  for (size_t i = 0; i < in->shaped.rank; ++i) {
    int64_t dim = in->shaped.dims[i];
    if (sizes[i] < 0 || (dim != KILN_IR_DYNAMIC_DIM && sizes[i] > dim)) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "slice_sizes[%zu] = %lld is out of range for dimension size "
          "%lld",
          i, (long long)sizes[i], (long long)dim);
    }
    bool dropped =
        kiln_sd_dims_contain(d.inserted, d.num_inserted, (int64_t)i) ||
        kiln_sd_dims_contain(d.operand_batching, d.num_operand_batching,
                             (int64_t)i);
    if (dropped && sizes[i] > 1) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "slice_sizes[%zu] must be at most 1 (a collapsed or batching "
          "dimension)",
          i);
    }
  }
  if (rt->shaped.element != in->shaped.element) {
    return kiln_ir_op_emit_error(
        op, ctx, "result element type must match the operand's");
  }
  // Result: the batch dimensions (indices without index_vector_dim) in
  // order, with the kept slice sizes at offset_dims.
  size_t batch_rank = idx->shaped.rank -
                      ((uint64_t)d.index_vector_dim < idx->shaped.rank ? 1 : 0);
  size_t result_rank = batch_rank + (size_t)d.num_window;
  if (rt->shaped.rank != result_rank) {
    return kiln_ir_op_emit_error(op, ctx, "result must have rank %zu",
                                 result_rank);
  }
  for (int64_t i = 0; i < d.num_window; ++i) {
    if (d.window[i] < 0 || (uint64_t)d.window[i] >= result_rank ||
        (i > 0 && d.window[i] <= d.window[i - 1])) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "offset_dims must be increasing dimensions of the rank-%zu result",
          result_rank);
    }
  }
  size_t next_batch = 0, next_offset = 0;
  for (size_t r = 0; r < result_rank; ++r) {
    int64_t want;
    if (kiln_sd_dims_contain(d.window, d.num_window, (int64_t)r)) {
      while (kiln_sd_dims_contain(d.inserted, d.num_inserted,
                                  (int64_t)next_offset) ||
             kiln_sd_dims_contain(d.operand_batching, d.num_operand_batching,
                                  (int64_t)next_offset)) {
        ++next_offset;
      }
      want = sizes[next_offset++];
    } else {
      if ((int64_t)next_batch == d.index_vector_dim) ++next_batch;
      want = idx->shaped.dims[next_batch++];
    }
    if (!kiln_sd_dim_matches(rt->shaped.dims[r], want)) {
      return kiln_ir_op_emit_error(op, ctx, "result dim %zu must be %lld", r,
                                   (long long)want);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_sd_verify_scatter(kiln_ir_context_t* ctx,
                                            kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(ctx, op));
  kiln_stablehlo_index_dims_t d;
  if (!kiln_stablehlo_index_dims(op, &d)) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "requires a valid #stablehlo.scatter<...> scatter_dimension_numbers");
  }
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n < 3 || (n - 1) % 2 != 0 || op->num_results != (n - 1) / 2) {
    return kiln_ir_op_emit_error(
        op, ctx, "expects N inputs, the indices, N updates and N results");
  }
  uint32_t count = (n - 1) / 2;
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* idx = kiln_ir_op_operand(op, count)->type;
  const kiln_ir_type_t* upd = kiln_ir_op_operand(op, count + 1)->type;
  KILN_RETURN_IF_ERROR(
      kiln_sd_verify_index_dims(ctx, op, &kiln_sd_scatter_names, &d, in, idx));
  for (uint32_t i = 0; i < count; ++i) {
    const kiln_ir_type_t* input = kiln_ir_op_operand(op, i)->type;
    const kiln_ir_type_t* update = kiln_ir_op_operand(op, count + 1 + i)->type;
    const kiln_ir_type_t* result = op->results[i].type;
    if (input->shaped.rank != in->shaped.rank ||
        update->shaped.rank != upd->shaped.rank ||
        result->shaped.rank != in->shaped.rank ||
        result->shaped.element != input->shaped.element) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "result #%u must have the type of input #%u, and all inputs (and "
          "all updates) one shape",
          i, i);
    }
    for (size_t k = 0; k < in->shaped.rank; ++k) {
      if (!kiln_sd_dim_matches(input->shaped.dims[k], in->shaped.dims[k]) ||
          !kiln_sd_dim_matches(result->shaped.dims[k], input->shaped.dims[k])) {
        return kiln_ir_op_emit_error(
            op, ctx,
            "result #%u must have the type of input #%u, and all inputs one "
            "shape",
            i, i);
      }
    }
    for (size_t k = 0; k < upd->shaped.rank; ++k) {
      if (!kiln_sd_dim_matches(update->shaped.dims[k], upd->shaped.dims[k])) {
        return kiln_ir_op_emit_error(op, ctx,
                                     "all updates must have one "
                                     "shape");
      }
    }
  }
  // Updates: the scatter dimensions (indices without index_vector_dim) in
  // order, with window sizes (at most the input's kept dimensions) at
  // update_window_dims.
  size_t scatter_rank =
      idx->shaped.rank -
      ((uint64_t)d.index_vector_dim < idx->shaped.rank ? 1 : 0);
  size_t update_rank = scatter_rank + (size_t)d.num_window;
  if (upd->shaped.rank != update_rank || update_rank > KILN_SD_MAX) {
    return kiln_ir_op_emit_error(op, ctx, "updates must have rank %zu",
                                 update_rank);
  }
  for (int64_t i = 0; i < d.num_window; ++i) {
    if (d.window[i] < 0 || (uint64_t)d.window[i] >= update_rank ||
        (i > 0 && d.window[i] <= d.window[i - 1])) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "update_window_dims must be increasing "
                                   "dimensions of the rank-%zu updates",
                                   update_rank);
    }
  }
  size_t next_scatter = 0, next_window = 0;
  for (size_t r = 0; r < update_rank; ++r) {
    int64_t got = upd->shaped.dims[r];
    if (kiln_sd_dims_contain(d.window, d.num_window, (int64_t)r)) {
      while (kiln_sd_dims_contain(d.inserted, d.num_inserted,
                                  (int64_t)next_window) ||
             kiln_sd_dims_contain(d.operand_batching, d.num_operand_batching,
                                  (int64_t)next_window)) {
        ++next_window;
      }
      int64_t bound = in->shaped.dims[next_window++];
      if (got != KILN_IR_DYNAMIC_DIM && bound != KILN_IR_DYNAMIC_DIM &&
          got > bound) {
        return kiln_ir_op_emit_error(op, ctx,
                                     "updates dim %zu must be at most %lld", r,
                                     (long long)bound);
      }
    } else {
      if ((int64_t)next_scatter == d.index_vector_dim) ++next_scatter;
      int64_t want = idx->shaped.dims[next_scatter++];
      if (!kiln_sd_dim_matches(got, want)) {
        return kiln_ir_op_emit_error(op, ctx, "updates dim %zu must be %lld", r,
                                     (long long)want);
      }
    }
  }
  kiln_ir_block_t* body = op->regions[0].first_block;
  if (!body || body->num_args != n - 1 || !body->last_op ||
      !kiln_ir_op_is(body->last_op, "stablehlo.return")) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "update computation must take %u arguments "
                                 "and end with stablehlo.return",
                                 n - 1);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_sd_verify_reduce_window(kiln_ir_context_t* ctx,
                                                  kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_window_attrs(ctx, op));
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(ctx, op));
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n == 0 || n % 2 != 0 || op->num_results != n / 2) {
    return kiln_ir_op_emit_error(
        op, ctx, "expects N inputs, N init values and N results");
  }
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  int64_t w[KILN_SD_MAX];
  if (kiln_sd_list(op, "window_dimensions", w) != (int64_t)in->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, ctx, "window_dimensions must have one entry per input dim");
  }
  kiln_ir_block_t* body = op->regions[0].first_block;
  if (!body || body->num_args != n || !body->last_op ||
      !kiln_ir_op_is(body->last_op, "stablehlo.return")) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "body must take %u arguments and end with "
                                 "stablehlo.return",
                                 n);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_sd_verify_convolution(kiln_ir_context_t* ctx,
                                                kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_window_attrs(ctx, op));
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(ctx, op));
  kiln_stablehlo_conv_dims_t d;
  if (!kiln_stablehlo_conv_dims(op, &d)) {
    return kiln_ir_op_emit_error(
        op, ctx, "requires a valid #stablehlo.conv<...> dimension_numbers");
  }
  const kiln_ir_type_t* l = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* k = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* o = op->results[0].type;
  size_t rank = (size_t)d.num_spatial + 2;
  if (l->shaped.rank != rank || k->shaped.rank != rank ||
      o->shaped.rank != rank) {
    return kiln_ir_op_emit_error(
        op, ctx, "input, kernel and result must have rank %zu", rank);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_sd_verify_batch_norm_inference(kiln_ir_context_t* ctx,
                                                         kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(ctx, op));
  const kiln_ir_type_t* x = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_attribute_t* fi = kiln_ir_op_get_attr(op, "feature_index");
  if (!fi || fi->kind != KILN_IR_ATTR_INTEGER || fi->i < 0 ||
      (size_t)fi->i >= x->shaped.rank) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "requires an in-range 'feature_index'");
  }
  if (x->shaped.dims[fi->i] == KILN_IR_DYNAMIC_DIM) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "the feature dim must have a static size");
  }
  if (x->shaped.element->kind != KILN_IR_TYPE_FLOAT) {
    return kiln_ir_op_emit_error(op, ctx, "operand must be floating point");
  }
  for (uint32_t i = 1; i < 5; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (t->shaped.rank != 1 || t->shaped.dims[0] != x->shaped.dims[fi->i] ||
        t->shaped.element != x->shaped.element) {
      return kiln_ir_op_emit_error(
          op, ctx, "operand #%u must be a 1-D tensor of the feature dim", i);
    }
  }
  if (op->results[0].type != x) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "result type must match the operand type");
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Custom forms
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_sd_parse_int_list(kiln_mlir_op_parser_t* p,
                                            int64_t* out, int64_t* count) {
  *count = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
    return kiln_ok_status();
  }
  do {
    if (*count >= KILN_SD_MAX) {
      return kiln_mlir_emit_error(p, "too many dimensions");
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &out[(*count)++]));
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE);
}

static void kiln_sd_print_int_list(kiln_ir_printer_t* p, int64_t n,
                                   const int64_t* v) {
  kiln_ir_printer_printf(p, "[");
  for (int64_t i = 0; i < n; ++i) {
    kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)v[i]);
  }
  kiln_ir_printer_printf(p, "]");
}

// `%a, %b, ..., key = [..], key2 = [..] {attrs} : types`: the keyword
// lists of each op and the attribute each one fills.
typedef struct kiln_sd_list_form_t {
  const char* op;
  size_t num_keys;
  const char* keys[3];
  const char* attrs[3];
} kiln_sd_list_form_t;

static const kiln_sd_list_form_t kiln_sd_list_forms[] = {
    {"stablehlo.pad",
     3,
     {"low", "high", "interior"},
     {"edge_padding_low", "edge_padding_high", "interior_padding"}},
    {"stablehlo.reverse", 1, {"dims"}, {"dimensions"}},
    {"stablehlo.dynamic_slice", 1, {"sizes"}, {"slice_sizes"}},
};

static const kiln_sd_list_form_t* kiln_sd_list_form(kiln_string_view_t name) {
  for (size_t i = 0;
       i < sizeof(kiln_sd_list_forms) / sizeof(*kiln_sd_list_forms); ++i) {
    if (kiln_string_view_equal_cstr(name, kiln_sd_list_forms[i].op)) {
      return &kiln_sd_list_forms[i];
    }
  }
  return NULL;
}

// Operands up to the first keyword (`%a, %b, key = ...`).
static kiln_status_t kiln_sd_parse_operands(kiln_mlir_op_parser_t* p,
                                            kiln_mlir_operand_list_t* ops) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t operand;
  kiln_status_t status = kiln_ok_status();
  while (kiln_mlir_parse_optional_operand(p, &operand, &status)) {
    if (ops->count == ops->capacity) {
      size_t cap = ops->capacity ? ops->capacity * 2 : 4;
      kiln_mlir_operand_t* items =
          kiln_ir_arena_alloc(ctx, sizeof(*items) * cap);
      if (!items) return kiln_mlir_emit_error(p, "out of memory");
      if (ops->count) memcpy(items, ops->items, sizeof(*items) * ops->count);
      ops->items = items;
      ops->capacity = cap;
    }
    ops->items[ops->count++] = operand;
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) break;
  }
  return status;
}

static kiln_status_t kiln_sd_parse_list_form(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  const kiln_sd_list_form_t* form = kiln_sd_list_form(state->name);
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(kiln_sd_parse_operands(p, &operands));
  for (size_t k = 0; k < form->num_keys; ++k) {
    if (k > 0 && !kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) {
      return kiln_mlir_emit_error(p, "expected ', %s = [...]'", form->keys[k]);
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, form->keys[k]));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    int64_t v[KILN_SD_MAX], n = 0;
    KILN_RETURN_IF_ERROR(kiln_sd_parse_int_list(p, v, &n));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, form->attrs[k], kiln_dialect_i64_array(ctx, (size_t)n, v)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_sd_print_list_form(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  const kiln_sd_list_form_t* form = kiln_sd_list_form(op->name);
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  const char* elided[3];
  size_t num_elided = 0;
  for (size_t k = 0; k < form->num_keys; ++k) {
    int64_t v[KILN_SD_MAX];
    int64_t n = kiln_sd_list(op, form->attrs[k], v);
    if (n < 0) break;
    kiln_ir_printer_printf(p, ", %s = ", form->keys[k]);
    kiln_sd_print_int_list(p, n, v);
    elided[num_elided++] = form->attrs[k];
  }
  kiln_dialect_print_functional_tail(p, op, elided, num_elided);
}

// `%x, %i, dim = 0, batch_dims = 0 : (T, I) -> R`
static kiln_status_t kiln_sd_parse_torch_index_select(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(kiln_sd_parse_operands(p, &operands));
  const char* keys[2] = {"dim", "batch_dims"};
  for (int k = 0; k < 2; ++k) {
    if (k > 0)
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, keys[k]));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    int64_t v = 0;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &v));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, keys[k],
        kiln_ir_integer_attr_get(ctx, kiln_ir_int_type(ctx, 64), v)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_sd_print_torch_index_select(kiln_ir_printer_t* p,
                                             kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dim");
  const kiln_ir_attribute_t* bd = kiln_ir_op_get_attr(op, "batch_dims");
  kiln_ir_printer_printf(p, ", dim = %lld, batch_dims = %lld",
                         dim ? (long long)dim->i : 0ll,
                         bd ? (long long)bd->i : 0ll);
  static const char* const elided[] = {"dim", "batch_dims"};
  kiln_dialect_print_functional_tail(p, op, elided, 2);
}

// The short form text of |d| (`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`).
static void kiln_sd_conv_text(const kiln_stablehlo_conv_dims_t* d, char* buf,
                              size_t cap) {
  size_t len = 0;
  int64_t rank = d->num_spatial + 2;
  for (int part = 0; part < 3; ++part) {
    const int64_t* sp = part == 0   ? d->input_spatial
                        : part == 1 ? d->kernel_spatial
                                    : d->output_spatial;
    int64_t a = part == 0   ? d->input_batch
                : part == 1 ? d->kernel_input_feature
                            : d->output_batch;
    int64_t b = part == 0   ? d->input_feature
                : part == 1 ? d->kernel_output_feature
                            : d->output_feature;
    const char* la = part == 1 ? "i" : "b";
    const char* lb = part == 1 ? "o" : "f";
    len += (size_t)snprintf(buf + len, cap - len, "%s[",
                            part == 0   ? ""
                            : part == 1 ? "x"
                                        : "->");
    for (int64_t pos = 0; pos < rank && len < cap; ++pos) {
      const char* sep = pos ? ", " : "";
      if (pos == a) {
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", sep, la);
      } else if (pos == b) {
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", sep, lb);
      } else {
        for (int64_t s = 0; s < d->num_spatial; ++s) {
          if (sp[s] == pos) {
            len += (size_t)snprintf(buf + len, cap - len, "%s%lld", sep,
                                    (long long)s);
          }
        }
      }
    }
    if (len < cap) len += (size_t)snprintf(buf + len, cap - len, "]");
    if (len >= cap) {
      buf[cap - 1] = 0;
      return;
    }
  }
}

// `[b, 0, 1, f]` as raw text appended to |buf|.
static kiln_status_t kiln_sd_parse_conv_list_text(kiln_mlir_op_parser_t* p,
                                                  char* buf, size_t* len,
                                                  size_t cap) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  *len += (size_t)snprintf(buf + *len, cap - *len, "[");
  bool first = true;
  while (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
    if (!first)
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
    const kiln_mlir_token_t* tok = kiln_mlir_peek(p);
    kiln_string_view_t word;
    if (tok->kind == KILN_MLIR_TOK_INTEGER) {
      int64_t v = 0;
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &v));
      *len += (size_t)snprintf(buf + *len, cap - *len, "%s%lld",
                               first ? "" : ", ", (long long)v);
    } else if (kiln_mlir_parse_optional_any_keyword(p, &word)) {
      *len += (size_t)snprintf(buf + *len, cap - *len, "%s%.*s",
                               first ? "" : ", ", (int)word.size, word.data);
    } else {
      return kiln_mlir_emit_error(p,
                                  "expected a dimension (b, f, i, o or "
                                  "a spatial number)");
    }
    if (*len >= cap) return kiln_mlir_emit_error(p, "too many dimensions");
    first = false;
  }
  *len += (size_t)snprintf(buf + *len, cap - *len, "]");
  return kiln_ok_status();
}

static kiln_status_t kiln_sd_parse_convolution(kiln_mlir_op_parser_t* p,
                                               kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_PAREN, &operands));
  if (kiln_mlir_parse_optional_keyword(p, "dim_numbers")) {
    const kiln_mlir_token_t* tok = kiln_mlir_peek(p);
    uint32_t line = tok->line, column = tok->column;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    char buf[256];
    size_t len = (size_t)snprintf(buf, sizeof(buf), "#stablehlo.conv<");
    KILN_RETURN_IF_ERROR(
        kiln_sd_parse_conv_list_text(p, buf, &len, sizeof(buf)));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "x"));
    len += (size_t)snprintf(buf + len, sizeof(buf) - len, "x");
    KILN_RETURN_IF_ERROR(
        kiln_sd_parse_conv_list_text(p, buf, &len, sizeof(buf)));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
    len += (size_t)snprintf(buf + len, sizeof(buf) - len, "->");
    KILN_RETURN_IF_ERROR(
        kiln_sd_parse_conv_list_text(p, buf, &len, sizeof(buf)));
    len += (size_t)snprintf(buf + len, sizeof(buf) - len, ">");
    if (len >= sizeof(buf)) return kiln_mlir_emit_error(p, "too long");
    kiln_stablehlo_conv_dims_t d;
    kiln_string_view_t text =
        kiln_make_string_view(kiln_ir_arena_dup(ctx, buf, len + 1), len);
    if (!kiln_stablehlo_conv_dims_from_text(text, &d)) {
      return kiln_mlir_emit_error_at(p, line, column,
                                     "invalid convolution dim_numbers");
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "dimension_numbers",
        kiln_ir_dialect_attr_get(ctx, kiln_ir_intern_cstr(ctx, "stablehlo"),
                                 kiln_ir_intern_cstr(ctx, "conv"), text, false,
                                 0, NULL)));
    kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA);
  }
  if (kiln_mlir_parse_optional_keyword(p, "window")) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LBRACE));
    while (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RBRACE)) {
      kiln_string_view_t key;
      if (!kiln_mlir_parse_optional_any_keyword(p, &key)) {
        return kiln_mlir_emit_error(p, "expected a window field");
      }
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
      if (kiln_string_view_equal_cstr(key, "pad")) {
        // [[lo, hi], ...] -> dense<...> : tensor<Nx2xi64>
        int64_t v[2 * KILN_SD_MAX];
        int64_t n = 0;
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
        do {
          int64_t pair[KILN_SD_MAX], np = 0;
          KILN_RETURN_IF_ERROR(kiln_sd_parse_int_list(p, pair, &np));
          if (np != 2 || n >= 2 * KILN_SD_MAX) {
            return kiln_mlir_emit_error(p, "expected [low, high] pairs");
          }
          v[n++] = pair[0];
          v[n++] = pair[1];
        } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
        int64_t shape[2] = {n / 2, 2};
        const kiln_ir_type_t* t = kiln_ir_tensor_type_get(
            ctx, 2, shape, kiln_ir_int_type(ctx, 64), NULL);
        KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
            p, state, "padding",
            kiln_ir_dense_elements_attr_get(ctx, t, false, v,
                                            sizeof(int64_t) * (size_t)n)));
      } else if (kiln_string_view_equal_cstr(key, "reverse")) {
        const kiln_ir_attribute_t* a = NULL;
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &a));
        KILN_RETURN_IF_ERROR(
            kiln_mlir_add_attribute(p, state, "window_reversal", a));
      } else {
        const char* name =
            kiln_string_view_equal_cstr(key, "stride")       ? "window_strides"
            : kiln_string_view_equal_cstr(key, "lhs_dilate") ? "lhs_dilation"
            : kiln_string_view_equal_cstr(key, "rhs_dilate") ? "rhs_dilation"
                                                             : NULL;
        if (!name) {
          return kiln_mlir_emit_error(p, "unknown window field '%.*s'",
                                      (int)key.size, key.data);
        }
        int64_t v[KILN_SD_MAX], n = 0;
        KILN_RETURN_IF_ERROR(kiln_sd_parse_int_list(p, v, &n));
        KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
            p, state, name, kiln_dialect_i64_array(ctx, (size_t)n, v)));
      }
      kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA);
    }
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_sd_print_convolution(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, "(");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, ")");
  const char* elided[8];
  size_t num_elided = 0;
  kiln_stablehlo_conv_dims_t d;
  if (kiln_stablehlo_conv_dims(op, &d)) {
    char buf[256];
    kiln_sd_conv_text(&d, buf, sizeof(buf));
    kiln_ir_printer_printf(p, " dim_numbers = %s", buf);
    elided[num_elided++] = "dimension_numbers";
  }
  static const char* const keys[] = {"stride", "lhs_dilate", "rhs_dilate"};
  static const char* const names[] = {"window_strides", "lhs_dilation",
                                      "rhs_dilation"};
  bool open = false;
  for (int i = 0; i < 4; ++i) {
    const char* name = i == 1 ? "padding" : names[i == 0 ? 0 : i - 1];
    const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, name);
    if (!a) continue;
    int64_t v[2 * KILN_SD_MAX];
    int64_t n = kiln_dialect_int_list(a, v, 2 * KILN_SD_MAX);
    if (n < 0) continue;
    kiln_ir_printer_printf(p, "%s", open ? ", " : ", window = {");
    open = true;
    if (i == 1) {
      kiln_ir_printer_printf(p, "pad = [");
      for (int64_t j = 0; j + 1 < n; j += 2) {
        kiln_ir_printer_printf(p, "%s[%lld, %lld]", j ? ", " : "",
                               (long long)v[j], (long long)v[j + 1]);
      }
      kiln_ir_printer_printf(p, "]");
    } else {
      kiln_ir_printer_printf(p, "%s = ", keys[i == 0 ? 0 : i - 1]);
      kiln_sd_print_int_list(p, n, v);
    }
    elided[num_elided++] = name;
  }
  if (open) kiln_ir_printer_printf(p, "}");
  kiln_dialect_print_functional_tail(p, op, elided, num_elided);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

static const kiln_ir_op_def_t kiln_stablehlo_data_defs[] = {
    {"stablehlo.pad", "pads with edge and interior padding",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 2, 1, 0, 0,
     kiln_sd_verify_pad, kiln_sd_parse_list_form, kiln_sd_print_list_form, NULL,
     NULL, kiln_stablehlo_lower_pad},
    {"stablehlo.reverse", "reverses dimensions",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 1, 1, 0, 0,
     kiln_sd_verify_reverse, kiln_sd_parse_list_form, kiln_sd_print_list_form,
     NULL, NULL, kiln_stablehlo_lower_reverse},
    {"stablehlo.dynamic_slice", "slice at clamped run-time start indices",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, KILN_IR_VARIADIC,
     1, 0, 0, kiln_sd_verify_dynamic_slice, kiln_sd_parse_list_form,
     kiln_sd_print_list_form, NULL, NULL, kiln_stablehlo_lower_dynamic_slice},
    {"stablehlo.torch_index_select", "selects slices by an index tensor",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 2, 1, 0, 0,
     kiln_sd_verify_torch_index_select, kiln_sd_parse_torch_index_select,
     kiln_sd_print_torch_index_select, NULL, NULL,
     kiln_stablehlo_lower_torch_index_select},
    {"stablehlo.gather", "gathers slices at start indices",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 2, 1, 0, 0,
     kiln_sd_verify_gather, NULL, NULL, NULL, NULL,
     kiln_stablehlo_lower_gather},
    {"stablehlo.scatter", "scatters updates with an update computation",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK, KILN_IR_VARIADIC,
     KILN_IR_VARIADIC, 1, 0, kiln_sd_verify_scatter, NULL, NULL, NULL, NULL,
     kiln_stablehlo_lower_scatter},
    {"stablehlo.reduce_window", "reduces windows with a body",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK |
         KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 1, 0, kiln_sd_verify_reduce_window,
     NULL, NULL, NULL, NULL, kiln_stablehlo_lower_reduce_window},
    {"stablehlo.convolution", "convolution with dimension numbers",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 2, 1, 0, 0,
     kiln_sd_verify_convolution, kiln_sd_parse_convolution,
     kiln_sd_print_convolution, NULL, NULL, kiln_stablehlo_lower_convolution},
    {"stablehlo.batch_norm_inference", "normalizes with given statistics",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 5, 1, 0, 0,
     kiln_sd_verify_batch_norm_inference, NULL, NULL, NULL, NULL,
     kiln_stablehlo_lower_batch_norm_inference},
};

kiln_status_t kiln_dialect_register_stablehlo_data(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_stablehlo_data_defs,
      sizeof(kiln_stablehlo_data_defs) / sizeof(kiln_stablehlo_data_defs[0]));
}
