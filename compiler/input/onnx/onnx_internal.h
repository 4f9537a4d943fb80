// Shared between the ONNX importer's graph walk (onnx_import.c) and its op
// lowerings (onnx_ops.c). Not a public API.
#ifndef KILN_COMPILER_INPUT_ONNX_ONNX_INTERNAL_H_
#define KILN_COMPILER_INPUT_ONNX_ONNX_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/attributes.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/ir/types.h"
#include "onnx.pb-c.h"
#include "runtime/base/status.h"

#define KILN_ONNX_MAX_RANK 16
// The newest ai.onnx opset whose op versions the lowering table knows.
#define KILN_ONNX_MAX_OPSET 23
#define KILN_ONNX_MIN_OPSET 1

// A tensor whose contents are known at import: initializers, Constant
// nodes and the results of folded shape computations. |data| is dense
// row-major in the IR storage format of |type|'s element (i1: one byte).
typedef struct kiln_onnx_const_t {
  const kiln_ir_type_t* type;  // static ranked tensor
  const uint8_t* data;         // the context's arena when |in_arena|; else an
                               // external-data mapping that import unmaps
  size_t size;
  bool in_arena;
} kiln_onnx_const_t;

// What an ONNX value is. Sequences and optionals exist only at import:
// their lengths and presence must be known there, and they hold tensor
// values (an optional may hold a sequence).
typedef enum kiln_onnx_kind_e {
  KILN_ONNX_KIND_TENSOR = 0,
  KILN_ONNX_KIND_SEQUENCE,
  KILN_ONNX_KIND_OPTIONAL,
} kiln_onnx_kind_t;

// One named ONNX value.
typedef struct kiln_onnx_value_t {
  const char* name;
  const kiln_ir_type_t* type;      // ranked tensor (NULL for containers)
  kiln_ir_value_t* ir;             // NULL until materialized (constants)
  const kiln_onnx_const_t* known;  // non-NULL when known at import
  // A consumer node whose computation the producer already applied (a Conv
  // that folded the BatchNormalization after it into its weights): that
  // node lowers to the identity.
  const Onnx__NodeProto* absorbed;
  kiln_onnx_kind_t kind;
  // A sequence's elements (tensors), or an optional's contents (none when
  // absent, else one tensor or sequence); arena-allocated and never changed
  // in place (values may share them).
  size_t num_items;
  struct kiln_onnx_value_t* items;
  // A sequence's element type when the graph states it (SequenceEmpty's
  // dtype): NULL when unknown. Unused for tensors.
  const kiln_ir_type_t* item_element;
} kiln_onnx_value_t;

typedef struct kiln_onnx_importer_t kiln_onnx_importer_t;

// One node being lowered. Lowerings read |inputs| (NULL entries are omitted
// optional inputs; |num_inputs| may be fewer than the op's arity) and fill
// |outputs[i]| (type plus an IR value and/or a known constant).
typedef struct kiln_onnx_node_t {
  kiln_onnx_importer_t* importer;
  kiln_ir_context_t* context;
  kiln_ir_builder_t* b;
  const Onnx__NodeProto* proto;
  int64_t opset;  // the ai.onnx opset the model imports
  size_t num_inputs;
  kiln_onnx_value_t** inputs;
  size_t num_outputs;
  kiln_onnx_value_t* outputs;
  // The declared type of each output when the graph states one (graph
  // outputs, value_info), else NULL.
  const kiln_ir_type_t** declared;
} kiln_onnx_node_t;

typedef kiln_status_t (*kiln_onnx_lower_fn_t)(kiln_onnx_node_t* n);

// One lowering: (op type, since version) -> function. The importer picks
// the entry with the greatest since version <= the model's opset.
typedef struct kiln_onnx_op_entry_t {
  const char* op_type;
  int since_version;
  kiln_onnx_lower_fn_t lower;
} kiln_onnx_op_entry_t;

// The table (onnx_ops.c), terminated by a NULL op_type.
extern const kiln_onnx_op_entry_t kiln_onnx_op_table[];

// "node 'name' (Op)" into |buffer|, as node errors name the node (for
// run-time check messages, which have no file or opset).
const char* kiln_onnx_node_label(kiln_onnx_node_t* n, char* buffer,
                                 size_t size);

// "<file>: node 'name' (Op, opset N): <message>" as an UNIMPLEMENTED or
// INVALID_ARGUMENT status.
kiln_status_t kiln_onnx_node_error(kiln_onnx_node_t* n, kiln_status_code_t code,
                                   const char* format, ...)
    __attribute__((format(printf, 3, 4)));

// The IR element type of ONNX data type |dtype| (NULL when unsupported).
const kiln_ir_type_t* kiln_onnx_element_type(kiln_ir_context_t* context,
                                             int32_t dtype);
// The ONNX type name ("FLOAT", "INT64", ...) of |dtype|.
const char* kiln_onnx_dtype_name(int32_t dtype);

// Decodes a TensorProto (typed fields, raw_data, external data) into a
// known constant.
kiln_status_t kiln_onnx_read_tensor(kiln_onnx_importer_t* importer,
                                    const Onnx__TensorProto* tensor,
                                    const char* what,
                                    kiln_onnx_const_t** out_const);

// The IR value of |v|, materializing a known constant as
// stablehlo.constant at the insertion point on first use.
kiln_status_t kiln_onnx_materialize(kiln_onnx_node_t* n, kiln_onnx_value_t* v,
                                    kiln_ir_value_t** out_value);

// The value named |name| defined so far (NULL if none).
kiln_onnx_value_t* kiln_onnx_find_value(kiln_onnx_importer_t* importer,
                                        const char* name);

// The one node of the graph that reads value |name|, or NULL when none or
// several do or it is a graph output.
const Onnx__NodeProto* kiln_onnx_sole_consumer(kiln_onnx_importer_t* importer,
                                               const char* name);

// Imports |graph| (a control-flow op's body) at the insertion point, in a
// scope of its own: its inputs are |inputs| (type plus IR value and/or known
// constant, by position), the values of the enclosing graphs stay visible,
// and nothing the body defines is visible after it. |outputs| receive its
// outputs (|num_outputs| must be the graph's count). Import a body once per
// iteration to unroll a loop whose trip count is known.
kiln_status_t kiln_onnx_import_subgraph(kiln_onnx_node_t* n,
                                        const Onnx__GraphProto* graph,
                                        size_t num_inputs,
                                        const kiln_onnx_value_t* inputs,
                                        size_t num_outputs,
                                        kiln_onnx_value_t* outputs);

// "tensor", "sequence" or "optional" (for messages).
const char* kiln_onnx_kind_name(kiln_onnx_kind_t kind);

// The tensors a value flattens to, in order (a tensor: itself; a sequence:
// its elements; an optional: its contents' tensors, none when absent):
// |*count| is incremented and, when |out| is non-NULL, the tensors are
// stored from out[*count]. Graph inputs and outputs, If results and Loop
// carried values are passed as these tensors.
void kiln_onnx_flatten(kiln_onnx_value_t* v, kiln_onnx_value_t** out,
                       size_t* count);

// True when |a| and |b| have the same structure (kind, lengths, presence)
// and their tensors the same types.
bool kiln_onnx_same_structure(const kiln_onnx_value_t* a,
                              const kiln_onnx_value_t* b);

// Rebuilds a value of |like|'s structure from |tensors| (consumed from
// tensors[*next], *next advanced): the inverse of kiln_onnx_flatten.
kiln_status_t kiln_onnx_unflatten(kiln_ir_context_t* context,
                                  const kiln_onnx_value_t* like,
                                  kiln_onnx_value_t* const* tensors,
                                  size_t* next, kiln_onnx_value_t* out);

// A known constant of |type| from |data| (copied).
kiln_onnx_const_t* kiln_onnx_make_const(kiln_ir_context_t* context,
                                        const kiln_ir_type_t* type,
                                        const void* data, size_t size);

#endif  // KILN_COMPILER_INPUT_ONNX_ONNX_INTERNAL_H_
