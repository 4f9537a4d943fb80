// ONNX importer tests on models built here with the generated protobuf-c
// structs: the calling convention, clear errors for bad graphs and bad
// tensors (undefined inputs, cycles, short data, unknown types, external
// data that is missing, out of range or outside the model's folder), and
// robustness: every single-byte corruption and every truncation of a small
// model imports cleanly or fails with a status (run under ASan by
// `make test-asan`).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/dialects/registration.h"
#include "compiler/input/onnx/onnx_import.h"
#include "compiler/ir/builtin.h"
#include "compiler/ir/text/parser.h"
#include "compiler/ir/verifier.h"
#include "onnx.pb-c.h"
#include "runtime/testing/test.h"

// How the test model is broken.
typedef enum {
  MODEL_GOOD = 0,
  MODEL_UNDEFINED_INPUT,
  MODEL_CYCLE,
  MODEL_SHORT_INITIALIZER,
  MODEL_UNKNOWN_DATA_TYPE,
  MODEL_EXTERNAL,  // initializer data in weights.bin (|location| etc.)
  MODEL_UNKNOWN_OP,
  MODEL_NEW_OPSET,
} model_kind_t;

typedef struct {
  const char* location;
  const char* offset;
  const char* length;
} external_t;

// Serializes graph "g": z = Relu(Add(x, w)) with x: f32[2, 3] an input and
// w: f32[2, 3] an initializer (also listed as an input, as IR version 3
// does). Returns the size written to |out| (malloc'd).
static size_t build_model(model_kind_t kind, const external_t* ext,
                          uint8_t** out) {
  float w_data[6] = {1, -2, 3, -4, 5, -6};
  int64_t dims[2] = {2, 3};

  Onnx__TensorShapeProto__Dimension d0 =
      ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
  d0.value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
  d0.dim_value = 2;
  Onnx__TensorShapeProto__Dimension d1 = d0;
  d1.dim_value = 3;
  Onnx__TensorShapeProto__Dimension* dim_list[2] = {&d0, &d1};
  Onnx__TensorShapeProto shape = ONNX__TENSOR_SHAPE_PROTO__INIT;
  shape.n_dim = 2;
  shape.dim = dim_list;
  Onnx__TypeProto__Tensor tensor_type = ONNX__TYPE_PROTO__TENSOR__INIT;
  tensor_type.has_elem_type = 1;
  tensor_type.elem_type = 1;
  tensor_type.shape = &shape;
  Onnx__TypeProto type = ONNX__TYPE_PROTO__INIT;
  type.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  type.tensor_type = &tensor_type;

  Onnx__ValueInfoProto x = ONNX__VALUE_INFO_PROTO__INIT;
  x.name = "x";
  x.type = &type;
  Onnx__ValueInfoProto w_info = x;
  w_info.name = "w";
  Onnx__ValueInfoProto z = x;
  z.name = "z";

  Onnx__TensorProto w = ONNX__TENSOR_PROTO__INIT;
  w.name = "w";
  w.n_dims = 2;
  w.dims = dims;
  w.has_data_type = 1;
  w.data_type = kind == MODEL_UNKNOWN_DATA_TYPE ? 99 : 1;
  Onnx__StringStringEntryProto entries[3];
  Onnx__StringStringEntryProto* entry_list[3];
  if (kind == MODEL_EXTERNAL) {
    const char* keys[3] = {"location", "offset", "length"};
    const char* values[3] = {ext->location, ext->offset, ext->length};
    for (int i = 0; i < 3; ++i) {
      Onnx__StringStringEntryProto e = ONNX__STRING_STRING_ENTRY_PROTO__INIT;
      entries[w.n_external_data] = e;
      entries[w.n_external_data].key = (char*)keys[i];
      entries[w.n_external_data].value = (char*)values[i];
      entry_list[w.n_external_data] = &entries[w.n_external_data];
      if (values[i]) ++w.n_external_data;
    }
    w.external_data = entry_list;
    w.has_data_location = 1;
    w.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  } else {
    w.has_raw_data = 1;
    w.raw_data.data = (uint8_t*)w_data;
    w.raw_data.len = kind == MODEL_SHORT_INITIALIZER ? 20 : sizeof(w_data);
  }

  char* add_in[2] = {"x", kind == MODEL_UNDEFINED_INPUT ? "nowhere" : "w"};
  char* add_out[1] = {"y"};
  char* relu_in[1] = {"y"};
  char* relu_out[1] = {"z"};
  Onnx__NodeProto add = ONNX__NODE_PROTO__INIT;
  add.name = "add0";
  add.op_type = kind == MODEL_UNKNOWN_OP ? "FooOp" : "Add";
  add.n_input = 2;
  add.input = add_in;
  add.n_output = 1;
  add.output = add_out;
  Onnx__NodeProto relu = ONNX__NODE_PROTO__INIT;
  relu.name = "relu0";
  relu.op_type = "Relu";
  relu.n_input = 1;
  relu.input = relu_in;
  relu.n_output = 1;
  relu.output = relu_out;
  // A cycle: Relu listed first reads y, which Add (after it) defines.
  Onnx__NodeProto* nodes[2] = {&add, &relu};
  if (kind == MODEL_CYCLE) {
    nodes[0] = &relu;
    nodes[1] = &add;
    add_in[1] = "z";
  }

  Onnx__ValueInfoProto* inputs[2] = {&x, &w_info};
  Onnx__ValueInfoProto* outputs[1] = {&z};
  Onnx__TensorProto* initializers[1] = {&w};
  Onnx__GraphProto graph = ONNX__GRAPH_PROTO__INIT;
  graph.name = "g";
  graph.n_node = 2;
  graph.node = nodes;
  graph.n_input = 2;
  graph.input = inputs;
  graph.n_output = 1;
  graph.output = outputs;
  graph.n_initializer = 1;
  graph.initializer = initializers;

  Onnx__OperatorSetIdProto opset = ONNX__OPERATOR_SET_ID_PROTO__INIT;
  opset.domain = "";
  opset.has_version = 1;
  opset.version = kind == MODEL_NEW_OPSET ? 99 : 13;
  Onnx__OperatorSetIdProto* opsets[1] = {&opset};
  Onnx__ModelProto model = ONNX__MODEL_PROTO__INIT;
  model.has_ir_version = 1;
  model.ir_version = 7;
  model.n_opset_import = 1;
  model.opset_import = opsets;
  model.graph = &graph;

  size_t size = onnx__model_proto__get_packed_size(&model);
  *out = (uint8_t*)malloc(size);
  onnx__model_proto__pack(&model, *out);
  return size;
}

static kiln_ir_context_t* make_context(void) {
  kiln_ir_context_t* c = NULL;
  if (kiln_ir_context_create(kiln_allocator_system(), &c)) return NULL;
  if (kiln_mlir_register_builtin_ops(c) || kiln_dialects_register_all(c)) {
    kiln_ir_context_destroy(c);
    return NULL;
  }
  return c;
}

// Imports |data| (and verifies the result); returns the status.
static kiln_status_t import(const char* filename, const uint8_t* data,
                            size_t size, kiln_ir_op_t** out_module,
                            kiln_ir_context_t* c) {
  kiln_ir_op_t* module = NULL;
  kiln_status_t status = kiln_onnx_import(c, filename, data, size, &module);
  if (!status) status = kiln_ir_verify(c, module);
  if (out_module) *out_module = module;
  return status;
}

// Imports a model of |kind| and expects |code| with |needle| in the message.
static void expect_error(model_kind_t kind, const external_t* ext,
                         const char* filename, kiln_status_code_t code,
                         const char* needle) {
  uint8_t* data = NULL;
  size_t size = build_model(kind, ext, &data);
  kiln_ir_context_t* c = make_context();
  KILN_ASSERT_TRUE(c != NULL);
  kiln_status_t status = import(filename, data, size, NULL, c);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), code);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), needle);
  kiln_status_free(status);
  kiln_ir_context_destroy(c);
  free(data);
}

KILN_TEST(good_model_calling_convention) {
  uint8_t* data = NULL;
  size_t size = build_model(MODEL_GOOD, NULL, &data);
  KILN_EXPECT_TRUE(kiln_onnx_is_model(data, size));
  KILN_EXPECT_FALSE(kiln_onnx_is_model("func.func @f() {", 16));
  KILN_EXPECT_TRUE(kiln_onnx_should_import("m.onnx", "garbage", 7));
  KILN_EXPECT_FALSE(kiln_onnx_should_import("m.mlir", "garbage", 7));
  KILN_EXPECT_FALSE(kiln_onnx_should_import(NULL, "garbage", 7));
  KILN_EXPECT_FALSE(kiln_onnx_is_model("\"builtin.module\"() ({", 20));
  // MLIR text that walks as protobuf fields with a field 7 (it passed for a
  // model before the graph field itself had to walk as fields); a .mlir
  // file is never imported, whatever it holds.
  static const char kWalks[] =
      "builtin.module {\n"
      "  func.func @opt(%arg0: tensor<4xf32> {kiln.name = \"o\"}) -> "
      "(tensor<i1>, tensor<4xf32>) {\n"
      "    %0 = stablehlo.negate %arg0 : tensor<4xf32>\n"
      "    %1 = stablehlo.constant dense<true> : tensor<i1>\n"
      "    func.return %1, %0 : tensor<i1>, tensor<4xf32>\n"
      "  }\n"
      "}\n";
  KILN_EXPECT_FALSE(kiln_onnx_is_model(kWalks, sizeof(kWalks) - 1));
  KILN_EXPECT_FALSE(kiln_onnx_should_import("opt.mlir", data, size));
  // Fields in another order (ir_version last) are recognized by content.
  uint8_t* moved = (uint8_t*)malloc(size);
  KILN_ASSERT_TRUE(moved != NULL && data[0] == 0x08 && data[1] < 0x80);
  memcpy(moved, data + 2, size - 2);
  memcpy(moved + size - 2, data, 2);
  KILN_EXPECT_TRUE(moved[0] != 0x08 && kiln_onnx_is_model(moved, size));
  free(moved);
  kiln_ir_context_t* c = make_context();
  KILN_ASSERT_TRUE(c != NULL);
  kiln_ir_op_t* module = NULL;
  KILN_EXPECT_OK(import("model.onnx", data, size, &module, c));
  KILN_ASSERT_TRUE(module != NULL);
  kiln_ir_op_t* func =
      kiln_ir_symbol_lookup(module, kiln_make_cstring_view("g"));
  KILN_ASSERT_TRUE(func != NULL);
  const kiln_ir_type_t* ft = kiln_ir_func_type(func);
  // The initializer w is listed among the inputs but is not an argument.
  KILN_EXPECT_EQ_INT(ft->function.num_inputs, 1);
  KILN_EXPECT_EQ_INT(ft->function.num_results, 1);
  KILN_EXPECT_EQ_INT(ft->function.results[0]->shaped.rank, 2);
  kiln_ir_context_destroy(c);
  free(data);
}

KILN_TEST(bad_graphs_and_tensors) {
  expect_error(MODEL_UNDEFINED_INPUT, NULL, "model.onnx",
               KILN_STATUS_INVALID_ARGUMENT,
               "node 'add0' (Add, opset 13): input 'nowhere' is never defined");
  expect_error(MODEL_CYCLE, NULL, "model.onnx", KILN_STATUS_INVALID_ARGUMENT,
               "node 'relu0' (Relu, opset 13): input 'y' is never defined");
  expect_error(
      MODEL_SHORT_INITIALIZER, NULL, "model.onnx", KILN_STATUS_INVALID_ARGUMENT,
      "initializer 'w': raw_data holds 20 bytes but its shape needs 24");
  expect_error(MODEL_UNKNOWN_DATA_TYPE, NULL, "model.onnx",
               KILN_STATUS_UNIMPLEMENTED,
               "initializer 'w': data type 99 (unknown) is not supported");
  expect_error(MODEL_UNKNOWN_OP, NULL, "model.onnx", KILN_STATUS_UNIMPLEMENTED,
               "model.onnx: node 'add0' (FooOp, opset 13): the op is not "
               "supported");
  expect_error(MODEL_NEW_OPSET, NULL, "model.onnx", KILN_STATUS_UNIMPLEMENTED,
               "opset 99, newer than the newest opset the importer knows");
}

KILN_TEST(external_data) {
  char dir[] = "/tmp/kiln_onnx_test_XXXXXX";
  KILN_ASSERT_TRUE(mkdtemp(dir) != NULL);
  char path[256], model[256];
  snprintf(path, sizeof(path), "%s/weights.bin", dir);
  snprintf(model, sizeof(model), "%s/model.onnx", dir);
  FILE* f = fopen(path, "wb");
  KILN_ASSERT_TRUE(f != NULL);
  float pad[4] = {0}, w[6] = {1, -2, 3, -4, 5, -6};
  fwrite(pad, 1, sizeof(pad), f);  // the data starts at offset 16
  fwrite(w, 1, sizeof(w), f);
  fclose(f);

  external_t good = {"weights.bin", "16", "24"};
  uint8_t* data = NULL;
  size_t size = build_model(MODEL_EXTERNAL, &good, &data);
  kiln_ir_context_t* c = make_context();
  KILN_ASSERT_TRUE(c != NULL);
  KILN_EXPECT_OK(import(model, data, size, NULL, c));
  kiln_ir_context_destroy(c);
  free(data);

  external_t missing = {"nothere.bin", NULL, NULL};
  expect_error(MODEL_EXTERNAL, &missing, model, KILN_STATUS_NOT_FOUND,
               "initializer 'w': cannot open external data file");
  external_t past_end = {"weights.bin", "24", "24"};
  expect_error(MODEL_EXTERNAL, &past_end, model, KILN_STATUS_OUT_OF_RANGE,
               "external data range [24, 48) is past the end");
  external_t escapes = {"../weights.bin", NULL, NULL};
  expect_error(MODEL_EXTERNAL, &escapes, model, KILN_STATUS_PERMISSION_DENIED,
               "'../weights.bin' is outside the model's folder");
  external_t absolute = {"/etc/passwd", NULL, NULL};
  expect_error(MODEL_EXTERNAL, &absolute, model, KILN_STATUS_PERMISSION_DENIED,
               "is outside the model's folder");
  external_t bad_length = {"weights.bin", "0", "8"};
  expect_error(MODEL_EXTERNAL, &bad_length, model, KILN_STATUS_INVALID_ARGUMENT,
               "external data length 8 does not match its shape (24 bytes)");
  unlink(path);
  rmdir(dir);
}

// Every single-byte corruption (three patterns per byte) and every
// truncation: a status or a verified module, never a crash or a leak.
KILN_TEST(corrupted_and_truncated_models) {
  uint8_t* data = NULL;
  size_t size = build_model(MODEL_GOOD, NULL, &data);
  uint8_t* copy = (uint8_t*)malloc(size);
  KILN_ASSERT_TRUE(copy != NULL);
  static const uint8_t patterns[3] = {0xff, 0x01, 0x80};
  size_t failures = 0, attempts = 0;
  for (size_t i = 0; i <= size; ++i) {
    for (int p = 0; p < 4; ++p) {
      size_t length = size;
      memcpy(copy, data, size);
      if (p == 3) {
        length = i;  // truncation
      } else if (i < size) {
        copy[i] ^= patterns[p];
      } else {
        continue;
      }
      kiln_ir_context_t* c = make_context();
      KILN_ASSERT_TRUE(c != NULL);
      kiln_status_t status = import("model.onnx", copy, length, NULL, c);
      if (status) ++failures;
      ++attempts;
      kiln_status_free(status);
      kiln_ir_context_destroy(c);
    }
  }
  // The unmodified model (truncation at |size|) imports; the empty one
  // does not.
  KILN_EXPECT_TRUE(failures > 0 && failures < attempts);
  free(copy);
  free(data);
}

KILN_TEST_MAIN(KILN_TEST_CASE(good_model_calling_convention),
               KILN_TEST_CASE(bad_graphs_and_tensors),
               KILN_TEST_CASE(external_data),
               KILN_TEST_CASE(corrupted_and_truncated_models))
