// linalg.pack / linalg.unpack (MLIR's data-tiling relayout ops), custom
// form as MLIR prints it:
//   %p = linalg.pack %src [padding_value(%v : T)] [outer_dims_perm = [..]]
//          inner_dims_pos = [..] inner_tiles = [..] into %dest
//          [attr-dict] : S -> D
//   %u = linalg.unpack %src [outer_dims_perm = [..]] inner_dims_pos = [..]
//          inner_tiles = [..] into %dest [attr-dict] : S -> D
// Operands: source, dest[, padding value], then one index per SSA tile
// size (`static_inner_tiles` holds the static ones and `?` for each of
// those, in order).
// Lowered by lower_linalg_ext.c.
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/linalg/lower_linalg_ext.h"

// kiln_dialect_int_list, -1 when the list does not fit in the layout's
// arrays (it returns the full count and writes only that many entries).
static int64_t kiln_linalg_pack_list(const kiln_ir_attribute_t* attr,
                                     int64_t* out) {
  int64_t n = kiln_dialect_int_list(attr, out, KILN_LINALG_PACK_MAX_RANK);
  return n > KILN_LINALG_PACK_MAX_RANK ? -1 : n;
}

bool kiln_linalg_is_pack_op(const kiln_ir_op_t* op) {
  return kiln_ir_op_is(op, "linalg.pack") || kiln_ir_op_is(op, "linalg.unpack");
}

bool kiln_linalg_pack_layout(const kiln_ir_op_t* op,
                             kiln_linalg_pack_layout_t* out) {
  memset(out, 0, sizeof(*out));
  out->is_pack = kiln_ir_op_is(op, "linalg.pack");
  const kiln_ir_type_t* src = kiln_ir_op_operand((kiln_ir_op_t*)op, 0)->type;
  const kiln_ir_type_t* dst = kiln_ir_op_operand((kiln_ir_op_t*)op, 1)->type;
  const kiln_ir_type_t* unpacked = out->is_pack ? src : dst;
  const kiln_ir_type_t* packed = out->is_pack ? dst : src;
  if (!kiln_ir_type_is_ranked_tensor(unpacked) ||
      !kiln_ir_type_is_ranked_tensor(packed) ||
      unpacked->shaped.rank > KILN_LINALG_PACK_MAX_RANK) {
    return false;
  }
  out->rank = (int64_t)unpacked->shaped.rank;
  const kiln_ir_attribute_t* pos = kiln_ir_op_get_attr(op, "inner_dims_pos");
  const kiln_ir_attribute_t* tiles =
      kiln_ir_op_get_attr(op, "static_inner_tiles");
  const kiln_ir_attribute_t* perm = kiln_ir_op_get_attr(op, "outer_dims_perm");
  if (!pos || !tiles) return false;
  out->num_tiled = kiln_linalg_pack_list(pos, out->inner_dims_pos);
  if (out->num_tiled < 0) return false;
  if (kiln_linalg_pack_list(tiles, out->tiles) != out->num_tiled) {
    return false;
  }
  if (perm) {
    if (kiln_linalg_pack_list(perm, out->outer_perm) != out->rank) {
      return false;
    }
  } else {
    for (int64_t i = 0; i < out->rank; ++i) out->outer_perm[i] = i;
  }
  uint32_t n = kiln_ir_op_num_regular_operands((kiln_ir_op_t*)op);
  out->has_padding =
      n >= 3 &&
      !kiln_ir_type_is_index(kiln_ir_op_operand((kiln_ir_op_t*)op, 2)->type);
  uint32_t next_tile_operand = out->has_padding ? 3 : 2;
  for (int64_t i = 0; i < out->rank; ++i) out->tile_of[i] = -1;
  for (int64_t t = 0; t < out->num_tiled; ++t) {
    int64_t d = out->inner_dims_pos[t];
    out->tile_operand[t] = -1;
    if (out->tiles[t] == KILN_IR_DYNAMIC_DIM) {
      if (next_tile_operand >= n ||
          !kiln_ir_type_is_index(
              kiln_ir_op_operand((kiln_ir_op_t*)op, next_tile_operand)->type)) {
        return false;
      }
      out->tile_operand[t] = next_tile_operand++;
    } else if (out->tiles[t] < 1) {
      return false;
    }
    if (d < 0 || d >= out->rank || out->tile_of[d] >= 0) return false;
    out->tile_of[d] = t;
  }
  if (next_tile_operand != n) return false;
  return kiln_dialect_is_permutation(out->outer_perm, out->rank);
}

static kiln_status_t kiln_linalg_verify_pack(kiln_ir_context_t* ctx,
                                             kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  bool is_pack = kiln_ir_op_is(op, "linalg.pack");
  if (n < 2 || op->num_results != 1 ||
      (!is_pack && n > 2 &&
       !kiln_ir_type_is_index(kiln_ir_op_operand(op, 2)->type))) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "expects a source, a destination%s, its SSA tile sizes and "
        "one result",
        is_pack ? ", an optional padding value" : "");
  }
  kiln_linalg_pack_layout_t l;
  if (!kiln_linalg_pack_layout(op, &l)) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "inner_dims_pos must name distinct dims of the unpacked tensor, one "
        "per positive inner tile, and outer_dims_perm must be a permutation "
        "of them");
  }
  const kiln_ir_type_t* src = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* dst = kiln_ir_op_operand(op, 1)->type;
  if (op->results[0].type != dst) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "result type must be the destination type");
  }
  if (kiln_ir_type_element(src) != kiln_ir_type_element(dst)) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "source and destination element types differ");
  }
  const kiln_ir_type_t* unpacked = is_pack ? src : dst;
  const kiln_ir_type_t* packed = is_pack ? dst : src;
  if ((int64_t)packed->shaped.rank != l.rank + l.num_tiled) {
    return kiln_ir_op_emit_error(
        op, ctx, "packed rank must be %lld (rank %lld plus %lld tiles)",
        (long long)(l.rank + l.num_tiled), (long long)l.rank,
        (long long)l.num_tiled);
  }
  // The packed shape: outer dims (ceil-divided by the tile, permuted), then
  // the tiles.
  for (int64_t j = 0; j < l.rank; ++j) {
    int64_t d = l.outer_perm[j];
    int64_t size = unpacked->shaped.dims[d];
    int64_t got = packed->shaped.dims[j];
    int64_t t = l.tile_of[d];
    if (size == KILN_IR_DYNAMIC_DIM || got == KILN_IR_DYNAMIC_DIM ||
        (t >= 0 && l.tiles[t] == KILN_IR_DYNAMIC_DIM)) {
      continue;
    }
    int64_t want = t < 0 ? size : (size + l.tiles[t] - 1) / l.tiles[t];
    // A tiled dim may have more outer tiles than the data fills (MLIR's
    // "at least" rule, IREE issue 12546): a pack fills them with the
    // padding value, an unpack never reads them.
    if (got != want && (t < 0 || got < want)) {
      return kiln_ir_op_emit_error(
          op, ctx, "packed dim %lld must be %s%lld, got %lld", (long long)j,
          t < 0 ? "" : "at least ", (long long)want, (long long)got);
    }
    if (is_pack && got > want && !l.has_padding) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "packed dim %lld has %lld tiles where the data fills %lld: a "
          "padding_value is required",
          (long long)j, (long long)got, (long long)want);
    }
    if (is_pack && t >= 0 && size % l.tiles[t] != 0 && !l.has_padding) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "dim %lld of size %lld is not a multiple of its tile %lld: a "
          "padding_value is required",
          (long long)d, (long long)size, (long long)l.tiles[t]);
    }
  }
  for (int64_t t = 0; t < l.num_tiled; ++t) {
    int64_t got = packed->shaped.dims[l.rank + t];
    if (got != KILN_IR_DYNAMIC_DIM && l.tiles[t] != KILN_IR_DYNAMIC_DIM &&
        got != l.tiles[t]) {
      return kiln_ir_op_emit_error(
          op, ctx, "packed dim %lld must be the tile %lld, got %lld",
          (long long)(l.rank + t), (long long)l.tiles[t], (long long)got);
    }
  }
  if (l.has_padding &&
      kiln_ir_op_operand(op, 2)->type != kiln_ir_type_element(src)) {
    return kiln_ir_op_emit_error(
        op, ctx, "padding_value must have the element type %s",
        kiln_ir_type_to_string(ctx, kiln_ir_type_element(src)));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_linalg_parse_pack(kiln_mlir_op_parser_t* p,
                                            kiln_ir_op_state_t* state) {
  bool is_pack = kiln_string_view_equal_cstr(state->name, "linalg.pack");
  kiln_mlir_operand_t src, dst, pad;
  const kiln_ir_type_t* pad_type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &src));
  bool has_pad =
      is_pack && kiln_mlir_parse_optional_keyword(p, "padding_value");
  if (has_pad) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &pad));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &pad_type));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  }
  const kiln_mlir_token_t* t = kiln_mlir_peek(p);
  if (t->kind == KILN_MLIR_TOK_BARE_ID &&
      kiln_string_view_equal_cstr(t->spelling, "outer_dims_perm")) {
    KILN_RETURN_IF_ERROR(
        kiln_linalg_parse_int_list_attr(p, state, "outer_dims_perm"));
  }
  KILN_RETURN_IF_ERROR(
      kiln_linalg_parse_int_list_attr(p, state, "inner_dims_pos"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "inner_tiles"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  int64_t tiles[KILN_LINALG_PACK_MAX_RANK];
  kiln_mlir_operand_t tile_operands[KILN_LINALG_PACK_MAX_RANK];
  size_t num_tiles = 0, num_tile_operands = 0;
  if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
    do {
      if (num_tiles == KILN_LINALG_PACK_MAX_RANK) {
        return kiln_mlir_emit_error(p, "too many inner tiles");
      }
      if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_PERCENT_ID) {
        // An SSA tile size (an index operand).
        KILN_RETURN_IF_ERROR(
            kiln_mlir_parse_operand(p, &tile_operands[num_tile_operands++]));
        tiles[num_tiles++] = KILN_IR_DYNAMIC_DIM;
        continue;
      }
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &tiles[num_tiles++]));
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "static_inner_tiles",
      kiln_dialect_i64_array(kiln_mlir_parser_context(p), num_tiles, tiles)));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "into"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &dst));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t *src_type = NULL, *dst_type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  // LinalgExt's form, `: (src dst) -> result`, also named the destination's
  // type; the result's must equal it (the verifier checks).
  const kiln_ir_type_t* result_type = NULL;
  bool ext_form = kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN);
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &src_type));
  if (ext_form) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &dst_type));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &result_type));
  if (!ext_form) dst_type = result_type;
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &src, src_type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &dst, dst_type, state));
  if (has_pad) {
    KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &pad, pad_type, state));
  }
  for (size_t i = 0; i < num_tile_operands; ++i) {
    KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(
        p, &tile_operands[i],
        kiln_ir_index_type_get(kiln_mlir_parser_context(p)), state));
  }
  return kiln_mlir_add_result_type(p, state, result_type);
}

static void kiln_linalg_print_int_list(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                       const char* attr, const char* keyword) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, attr);
  if (!a) return;
  int64_t v[KILN_LINALG_PACK_MAX_RANK];
  int64_t n = kiln_linalg_pack_list(a, v);
  kiln_ir_printer_printf(p, " %s = [", keyword);
  for (int64_t i = 0; i < n; ++i) {
    kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)v[i]);
  }
  kiln_ir_printer_printf(p, "]");
}

static void kiln_linalg_print_pack(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  static const char* const elided[] = {"outer_dims_perm", "inner_dims_pos",
                                       "static_inner_tiles"};
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  if (kiln_ir_op_num_regular_operands(op) >= 3 &&
      !kiln_ir_type_is_index(kiln_ir_op_operand(op, 2)->type)) {
    kiln_ir_value_t* pad = kiln_ir_op_operand(op, 2);
    kiln_ir_printer_printf(p, " padding_value(");
    kiln_ir_printer_print_value(p, pad);
    kiln_ir_printer_printf(p, " : ");
    kiln_ir_printer_print_type(p, pad->type);
    kiln_ir_printer_printf(p, ")");
  }
  kiln_linalg_print_int_list(p, op, "outer_dims_perm", "outer_dims_perm");
  kiln_linalg_print_int_list(p, op, "inner_dims_pos", "inner_dims_pos");
  kiln_linalg_pack_layout_t l;
  if (kiln_linalg_pack_layout(op, &l)) {
    kiln_ir_printer_printf(p, " inner_tiles = [");
    for (int64_t t = 0; t < l.num_tiled; ++t) {
      kiln_ir_printer_printf(p, "%s", t ? ", " : "");
      if (l.tile_operand[t] >= 0) {
        kiln_ir_printer_print_value(
            p, kiln_ir_op_operand(op, (uint32_t)l.tile_operand[t]));
      } else {
        kiln_ir_printer_printf(p, "%lld", (long long)l.tiles[t]);
      }
    }
    kiln_ir_printer_printf(p, "]");
  } else {
    kiln_linalg_print_int_list(p, op, "static_inner_tiles", "inner_tiles");
  }
  kiln_ir_printer_printf(p, " into ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 1));
  kiln_ir_printer_print_attr_dict(p, op, elided, 3);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
  kiln_ir_printer_printf(p, " -> ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

static const kiln_ir_op_def_t kiln_linalg_pack_defs[] = {
    {"linalg.pack",
     "packs a tensor into tiles (inner_dims_pos, inner_tiles, "
     "outer_dims_perm, padding_value)",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, 1, 0, 0, kiln_linalg_verify_pack,
     kiln_linalg_parse_pack, kiln_linalg_print_pack, NULL, NULL,
     kiln_linalg_ext_lower_pack},
    {"linalg.unpack",
     "unpacks a tiled tensor (the inverse of linalg.pack, trailing padding "
     "dropped)",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, 1, 0, 0, kiln_linalg_verify_pack,
     kiln_linalg_parse_pack, kiln_linalg_print_pack, NULL, NULL,
     kiln_linalg_ext_lower_pack},
};

kiln_status_t kiln_dialect_register_linalg_pack(kiln_ir_context_t* context) {
  KILN_RETURN_IF_ERROR(kiln_ir_register_ops(
      context, kiln_linalg_pack_defs,
      sizeof(kiln_linalg_pack_defs) / sizeof(kiln_linalg_pack_defs[0])));
  // IREE's LinalgExt had these ops before they moved upstream (tensor.pack,
  // then linalg.pack); the parser also takes their `: (src dst) -> result`
  // type form.
  KILN_RETURN_IF_ERROR(kiln_ir_register_op_alias(
      context, "iree_linalg_ext.pack", "linalg.pack"));
  KILN_RETURN_IF_ERROR(kiln_ir_register_op_alias(
      context, "iree_linalg_ext.unpack", "linalg.unpack"));
  KILN_RETURN_IF_ERROR(
      kiln_ir_register_op_alias(context, "tensor.pack", "linalg.pack"));
  return kiln_ir_register_op_alias(context, "tensor.unpack", "linalg.unpack");
}
