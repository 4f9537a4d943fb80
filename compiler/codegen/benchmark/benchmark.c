#include "compiler/codegen/benchmark/benchmark.h"

#include "compiler/dispatch/dispatch_ops.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/codegen/vm/asm_function.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/builtin.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/types.h"
#include "runtime/vm/assembler.h"

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

// Matches "--name=value" (value returned) or "--name" alone (value "").
static bool kiln_benchmark_flag(const char* arg, const char* name,
                                const char** out_value) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0) return false;
  if (arg[n] == '=') {
    *out_value = arg + n + 1;
    return true;
  }
  if (arg[n] == 0) {
    *out_value = "";
    return true;
  }
  return false;
}

kiln_status_t kiln_benchmark_options_parse_flag(
    kiln_benchmark_options_t* options, const char* arg, bool* out_consumed) {
  const char* v = NULL;
  *out_consumed = true;
  if (kiln_benchmark_flag(arg, "--export-benchmark-funcs", &v) ||
      kiln_benchmark_flag(arg, "--iree-flow-export-benchmark-funcs", &v)) {
    options->export_benchmark_funcs = strcmp(v, "false") != 0;
  } else if (kiln_benchmark_flag(arg, "--dump-executable-benchmarks-to", &v) ||
             kiln_benchmark_flag(
                 arg, "--iree-hal-dump-executable-benchmarks-to", &v)) {
    if (!v[0]) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "'%s' needs a directory: "
                              "--dump-executable-benchmarks-to=DIR",
                              arg);
    }
    options->dump_executable_benchmarks_to = v;
  } else if (kiln_benchmark_flag(arg, "--benchmark-dispatch-repeat-count",
                                 &v) ||
             kiln_benchmark_flag(
                 arg, "--iree-hal-benchmark-dispatch-repeat-count", &v)) {
    char* end = NULL;
    long n = strtol(v, &end, 10);
    if (!v[0] || *end || n < 1 || n > 1000000) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "'%s': the repeat count must be an integer in "
                              "[1, 1000000]",
                              arg);
    }
    options->dispatch_repeat_count = (int32_t)n;
  } else {
    *out_consumed = false;
  }
  return kiln_ok_status();
}

bool kiln_benchmark_options_active(const kiln_benchmark_options_t* options) {
  return options && (options->export_benchmark_funcs ||
                     options->dump_executable_benchmarks_to ||
                     options->dispatch_repeat_count > 1);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// The HAL element type code (IREE's encoding) and byte size of |element|;
// false for types a buffer view cannot hold.
static bool kiln_benchmark_element_info(const kiln_ir_type_t* element,
                                        uint32_t* out_code,
                                        uint64_t* out_bytes) {
  if (element->kind == KILN_IR_TYPE_FLOAT) {
    if (kiln_ir_float_kind_is_small(element->flt.kind)) return false;
    static const uint32_t bits[] = {16, 16, 32, 64};
    uint32_t numerical = element->flt.kind == KILN_IR_BF16 ? 0x22 : 0x21;
    *out_code = (numerical << 24) | bits[element->flt.kind];
    *out_bytes = bits[element->flt.kind] / 8;
    return true;
  }
  if (element->kind == KILN_IR_TYPE_INTEGER) {
    uint32_t width = element->integer.width;
    if (width == 1) {
      *out_code = (0x13u << 24) | 8;
      *out_bytes = 1;
      return true;
    }
    if (width != 8 && width != 16 && width != 32 && width != 64) return false;
    uint32_t numerical = element->integer.signedness == KILN_IR_SIGNED ? 0x11
                         : element->integer.signedness == KILN_IR_UNSIGNED
                             ? 0x12
                             : 0x10;
    *out_code = (numerical << 24) | width;
    *out_bytes = width / 8;
    return true;
  }
  return false;
}

// Static byte size of a ranked tensor type; false when dynamic or not a
// tensor of a supported element type.
static bool kiln_benchmark_tensor_bytes(const kiln_ir_type_t* type,
                                        uint32_t* out_code,
                                        uint64_t* out_bytes) {
  if (!type || type->kind != KILN_IR_TYPE_RANKED_TENSOR) return false;
  uint64_t element_bytes = 0;
  if (!kiln_benchmark_element_info(type->shaped.element, out_code,
                                   &element_bytes)) {
    return false;
  }
  uint64_t count = 1;
  for (size_t i = 0; i < type->shaped.rank; ++i) {
    if (type->shaped.dims[i] < 0) return false;
    count *= (uint64_t)type->shaped.dims[i];
  }
  *out_bytes = count * element_bytes;
  return true;
}

//===----------------------------------------------------------------------===//
// Assembly text helpers
//===----------------------------------------------------------------------===//

// Host imports the generated code uses; the missing ones are declared.
static const char* const kiln_benchmark_imports[] = {
    "import @hal.device.default : ->r",
    "import @hal.buffer.allocate : rI->r",
    "import @hal.buffer.wrap_rodata : rr->r",
    "import @hal.buffer_view.create : rIIii...->r",
    "import @hal.executable.create : rr->r",
    "import @hal.command_buffer.create : rii->r",
    "import @hal.command_buffer.dispatch : rriiiiii...->",
    "import @hal.command_buffer.barrier : r->",
    "import @hal.command_buffer.finalize : r->",
    "import @hal.device.queue.execute : rrrri...->",
    "import @hal.fence.create : r->r",
    "import @hal.fence.await : I...->i",
};

// Appends the import lines of kiln_benchmark_imports that |existing| lacks.
static void kiln_benchmark_add_imports(kiln_ir_string_builder_t* out,
                                       const char* existing,
                                       size_t existing_length) {
  for (size_t i = 0;
       i < sizeof(kiln_benchmark_imports) / sizeof(kiln_benchmark_imports[0]);
       ++i) {
    const char* line = kiln_benchmark_imports[i];
    // Compare up to the " :" so a differently spaced signature still counts.
    const char* colon = strstr(line, " :");
    size_t key = (size_t)(colon - line);
    bool found = false;
    for (const char* p = existing; p && p < existing + existing_length;) {
      const char* eol =
          memchr(p, '\n', (size_t)(existing + existing_length - p));
      size_t n =
          eol ? (size_t)(eol - p) : (size_t)(existing + existing_length - p);
      if (n > key && !strncmp(p, line, key) && p[key] == ' ') found = true;
      p = eol ? eol + 1 : NULL;
    }
    if (!found) kiln_ir_sb_printf(out, "%s\n", line);
  }
}

// Appends |text| with every dispatch line repeated |count| times, an
// execution barrier between the copies.
static void kiln_benchmark_repeat_dispatches(kiln_ir_string_builder_t* out,
                                             const char* text, size_t length,
                                             int32_t count) {
  static const char kDispatch[] = "  call.import @hal.command_buffer.dispatch(";
  const char* end = text + length;
  for (const char* p = text; p < end;) {
    const char* eol = memchr(p, '\n', (size_t)(end - p));
    size_t n = eol ? (size_t)(eol - p + 1) : (size_t)(end - p);
    if (count > 1 && n > sizeof(kDispatch) - 1 &&
        !strncmp(p, kDispatch, sizeof(kDispatch) - 1)) {
      // The command buffer register is the first operand.
      const char* cb = p + sizeof(kDispatch) - 1;
      size_t cb_length = strcspn(cb, ",)");
      for (int32_t i = 0; i < count; ++i) {
        if (i) {
          kiln_ir_sb_printf(out,
                            "  call.import @hal.command_buffer.barrier(%.*s) "
                            "-> ()\n",
                            (int)cb_length, cb);
        }
        kiln_ir_sb_append(out, p, n);
        if (!eol) kiln_ir_sb_append(out, "\n", 1);
      }
    } else {
      kiln_ir_sb_append(out, p, n);
    }
    p += n;
  }
}

static void kiln_benchmark_hex_zeros(kiln_ir_string_builder_t* out,
                                     uint64_t bytes) {
  kiln_ir_sb_append(out, "\"", 1);
  for (uint64_t i = 0; i < bytes; ++i) kiln_ir_sb_append(out, "00", 2);
  kiln_ir_sb_append(out, "\"", 1);
}

//===----------------------------------------------------------------------===//
// --export-benchmark-funcs
//===----------------------------------------------------------------------===//

static bool kiln_benchmark_func_is_public(kiln_ir_op_t* func) {
  const kiln_ir_attribute_t* vis = kiln_ir_op_get_attr(func, "sym_visibility");
  return !vis || vis->kind != KILN_IR_ATTR_STRING ||
         kiln_string_view_equal_cstr(vis->str, "public");
}

// Appends the wrapper of |func| (rodata first into |rodata|, the function
// into |funcs|). Functions with dynamic or unsupported inputs are skipped
// with a warning on stderr, as IREE's pass skips them.
static void kiln_benchmark_entry_wrapper(const kiln_benchmark_options_t* o,
                                         kiln_ir_op_t* func,
                                         kiln_ir_string_builder_t* rodata,
                                         kiln_ir_string_builder_t* funcs) {
  const kiln_ir_type_t* ft = kiln_ir_func_type(func);
  kiln_string_view_t name = kiln_ir_symbol_name(func);
  if (!ft) return;
  size_t inputs = ft->function.num_inputs;
  size_t results = ft->function.num_results;
  for (size_t i = 0; i < inputs; ++i) {
    uint32_t code;
    uint64_t bytes;
    if (!kiln_benchmark_tensor_bytes(ft->function.inputs[i], &code, &bytes) ||
        bytes == 0) {
      fprintf(stderr,
              "warning: --export-benchmark-funcs: no wrapper for '%.*s': "
              "input %zu has no static, non-empty tensor type\n",
              (int)name.size, name.data, i);
      return;
    }
  }
  // Registers: %r0 device; input i: %r(1+3i) rodata, %r(2+3i) buffer,
  // %r(3+3i) view; then the results; then the async fences.
  size_t result_base = 1 + 3 * inputs;
  size_t wait_fence = result_base + results;
  size_t signal_fence = wait_fence + 1;
  char signature[300];
  size_t r = 0;
  for (size_t i = 0; i < results && r < 250; ++i) signature[r++] = 'r';
  signature[r] = 0;
  kiln_ir_sb_printf(funcs, "func @%.*s_benchmark : ->%s export {\n",
                    (int)name.size, name.data, signature);
  kiln_ir_sb_printf(funcs, "  attr \"iree.benchmark\" \"entry\"\n");
  kiln_ir_sb_printf(funcs,
                    "  call.import @hal.device.default() -> (%%r0)\n"
                    "  const.i64 %%l0, 0\n  const.i32 %%i1, 1\n");
  for (size_t i = 0; i < inputs; ++i) {
    const kiln_ir_type_t* t = ft->function.inputs[i];
    uint32_t code = 0;
    uint64_t bytes = 0;
    kiln_benchmark_tensor_bytes(t, &code, &bytes);
    kiln_ir_sb_printf(rodata,
                      "rodata @__%.*s_benchmark_input_%zu align 64 : hex ",
                      (int)name.size, name.data, i);
    kiln_benchmark_hex_zeros(rodata, bytes);
    kiln_ir_sb_printf(rodata, "\n");
    kiln_ir_sb_printf(funcs,
                      "  rodata.ref %%r%zu, @__%.*s_benchmark_input_%zu\n"
                      "  call.import @hal.buffer.wrap_rodata(%%r0, %%r%zu) -> "
                      "(%%r%zu)\n"
                      "  const.i64 %%l1, %llu\n  const.i32 %%i0, %u\n",
                      1 + 3 * i, (int)name.size, name.data, i, 1 + 3 * i,
                      2 + 3 * i, (unsigned long long)bytes, code);
    for (size_t d = 0; d < t->shaped.rank; ++d) {
      kiln_ir_sb_printf(funcs, "  const.i64 %%l%zu, %lld\n", 2 + d,
                        (long long)t->shaped.dims[d]);
    }
    kiln_ir_sb_printf(funcs,
                      "  call.import @hal.buffer_view.create(%%r%zu, %%l0, "
                      "%%l1, %%i0, %%i1",
                      2 + 3 * i);
    for (size_t d = 0; d < t->shaped.rank; ++d) {
      kiln_ir_sb_printf(funcs, ", %%l%zu", 2 + d);
    }
    kiln_ir_sb_printf(funcs, ") -> (%%r%zu)\n", 3 + 3 * i);
  }
  if (o->async_external) {
    kiln_ir_sb_printf(funcs,
                      "  const.ref.null %%r%zu\n"
                      "  call.import @hal.fence.create(%%r0) -> (%%r%zu)\n",
                      wait_fence, signal_fence);
  }
  kiln_ir_sb_printf(funcs, "  call @%.*s(", (int)name.size, name.data);
  for (size_t i = 0; i < inputs; ++i) {
    kiln_ir_sb_printf(funcs, "%s%%r%zu", i ? ", " : "", 3 + 3 * i);
  }
  if (o->async_external) {
    kiln_ir_sb_printf(funcs, "%s%%r%zu, %%r%zu", inputs ? ", " : "", wait_fence,
                      signal_fence);
  }
  kiln_ir_sb_printf(funcs, ") -> (");
  for (size_t i = 0; i < results; ++i) {
    kiln_ir_sb_printf(funcs, "%s%%r%zu", i ? ", " : "", result_base + i);
  }
  kiln_ir_sb_printf(funcs, ")\n");
  if (o->async_external) {
    // The call returns once scheduled: wait for its signal fence here.
    kiln_ir_sb_printf(funcs,
                      "  const.i64 %%l1, -1\n"
                      "  call.import @hal.fence.await(%%l1, %%r%zu) -> "
                      "(%%i2)\n"
                      "  br.cond %%i2, ^failed, ^done\n"
                      "^failed:\n"
                      "  fail %%i2, \"benchmark wrapper: device work failed\"\n"
                      "^done:\n",
                      signal_fence);
  }
  kiln_ir_sb_printf(funcs, "  ret");
  for (size_t i = 0; i < results; ++i) {
    kiln_ir_sb_printf(funcs, "%s %%r%zu", i ? "," : "", result_base + i);
  }
  kiln_ir_sb_printf(funcs, "\n}\n");
}

//===----------------------------------------------------------------------===//
// --dump-executable-benchmarks-to
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_benchmark_write_file(const char* path,
                                               const uint8_t* bytes,
                                               size_t length) {
  FILE* file = fopen(path, "wb");
  if (!file) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND, "cannot write '%s': %s",
                            path, strerror(errno));
  }
  size_t written = fwrite(bytes, 1, length, file);
  int closed = fclose(file);
  if (written != length || closed != 0) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS, "writing '%s' failed", path);
  }
  return kiln_ok_status();
}

// The name of entry |ordinal| in a native executable's |body| ("  entry
// @NAME ..." lines, in ordinal order), or false.
static bool kiln_benchmark_native_entry(const char* body, size_t length,
                                        int64_t ordinal, const char** name,
                                        size_t* name_length) {
  static const char kEntry[] = "  entry @";
  const char* end = body + length;
  for (const char* p = body; p < end;) {
    const char* eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    size_t n = sizeof(kEntry) - 1;
    if ((size_t)(eol - p) > n && memcmp(p, kEntry, n) == 0 && ordinal-- == 0) {
      const char* q = p + n;
      while (q < eol && *q != ' ') ++q;
      *name = p + n;
      *name_length = (size_t)(q - (p + n));
      return true;
    }
    p = eol + 1;
  }
  return false;
}

// Writes DIR/<dispatch>.kmod, the benchmark of |region|'s dispatch of
// |executable| (vmvx: one executable per dispatch, named after it; native:
// one shared executable whose body has every entry, the region's
// entry_ordinal one benchmarked).
static kiln_status_t kiln_benchmark_dump_dispatch(
    const kiln_benchmark_options_t* o, kiln_ir_op_t* executable,
    kiln_ir_op_t* region, kiln_allocator_t allocator) {
  size_t nl, fl, el, sl, al, bl;
  const char* name = kiln_ir_op_get_string_attr(executable, "sym_name", &nl);
  const char* format = kiln_ir_op_get_string_attr(executable, "format", &fl);
  const char* entry = kiln_ir_op_get_string_attr(executable, "entry", &el);
  const char* source = kiln_ir_op_get_string_attr(executable, "source", &sl);
  const char* text = kiln_ir_op_get_string_attr(executable, "vm_asm", &al);
  const char* native_body = kiln_ir_op_get_string_attr(executable, "body", &bl);
  int64_t ordinal = 0;
  const char* file_name = name;
  size_t file_name_length = nl;
  if (bl > 0 && al == 0) {  // a missing attribute reads as ""
    const kiln_ir_attribute_t* ord =
        kiln_ir_op_get_attr(region, "entry_ordinal");
    if (ord && ord->kind == KILN_IR_ATTR_INTEGER) ordinal = ord->i;
    if (!kiln_benchmark_native_entry(native_body, bl, ordinal, &entry, &el)) {
      return kiln_make_status(KILN_STATUS_INTERNAL,
                              "executable '%.*s' has no entry %lld", (int)nl,
                              name, (long long)ordinal);
    }
    // Named like the vmvx dump: the entry without its kind suffix.
    file_name = entry;
    file_name_length = el;
    while (file_name_length > 0 && entry[file_name_length - 1] != '_') {
      --file_name_length;
    }
    file_name_length = file_name_length > 1 ? file_name_length - 1 : el;
  }
  int64_t count[3] = {1, 1, 1};
  const kiln_ir_attribute_t* wg =
      kiln_ir_op_get_attr(region, "workgroup_count");
  if (wg) kiln_ir_attr_int_list(wg, count, 3);
  // Bindings: the region's operands, then its results.
  size_t binding_count = region->num_operands + region->num_results;
  uint64_t sizes[256];
  if (binding_count > 256) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "executable '%.*s': more than 256 bindings",
                            (int)nl, name);
  }
  for (size_t i = 0; i < binding_count; ++i) {
    const kiln_ir_type_t* t =
        i < region->num_operands
            ? kiln_ir_op_operand(region, (uint32_t)i)->type
            : kiln_ir_op_result(region, (uint32_t)(i - region->num_operands))
                  ->type;
    uint32_t code;
    if (!kiln_benchmark_tensor_bytes(t, &code, &sizes[i])) {
      fprintf(stderr,
              "warning: --dump-executable-benchmarks-to: skipping '%.*s': "
              "binding %zu has no static tensor type\n",
              (int)nl, name, i);
      return kiln_ok_status();
    }
  }
  kiln_ir_string_builder_t out = {0};
  kiln_ir_sb_printf(&out, "module @%.*s_benchmark\n", (int)nl, name);
  kiln_benchmark_add_imports(&out, "", 0);
  kiln_ir_sb_printf(&out, "executable @%.*s : \"%.*s\" {\n", (int)nl, name,
                    (int)fl, format);
  if (al > 0) {
    kiln_ir_sb_printf(&out, "  entry @%.*s workgroup 1 1 1 source ", (int)el,
                      entry);
    kiln_asm_quote(&out, source, sl);
    kiln_ir_sb_printf(&out, "\n");
    kiln_ir_sb_append(&out, text, al);
  } else {
    kiln_ir_sb_append(&out, native_body, bl);
  }
  kiln_ir_sb_printf(&out, "}\n");
  kiln_ir_sb_printf(&out, "func @%.*s_benchmark : i-> export {\n", (int)el,
                    entry);
  kiln_ir_sb_printf(&out, "  attr \"iree.benchmark\" \"dispatch\"\n");
  kiln_ir_sb_printf(&out,
                    "  const.i32 %%i1, %lld\n  const.i32 %%i2, %lld\n"
                    "  const.i32 %%i3, %lld\n  const.i32 %%i4, %lld\n"
                    "  const.i32 %%i5, %zu\n  const.i32 %%i6, 1\n"
                    "  const.i32 %%i7, 0\n  const.i64 %%l0, 0\n"
                    "  const.i64 %%l1, -1\n",
                    (long long)ordinal, (long long)count[0],
                    (long long)count[1], (long long)count[2], binding_count);
  kiln_ir_sb_printf(&out, "  call.import @hal.device.default() -> (%%r0)\n");
  for (size_t i = 0; i < binding_count; ++i) {
    kiln_ir_sb_printf(&out, "  const.i64 %%l%zu, %llu\n", 2 + i,
                      (unsigned long long)sizes[i]);
    kiln_ir_sb_printf(&out, "  const.i32 %%i%zu, %zu\n", 20 + i, i);
    kiln_ir_sb_printf(&out,
                      "  call.import @hal.buffer.allocate(%%r0, %%l%zu) -> "
                      "(%%r%zu)\n",
                      2 + i, 10 + i);
  }
  kiln_ir_sb_printf(&out,
                    "  executable.ref %%r1, @%.*s\n"
                    "  call.import @hal.executable.create(%%r0, %%r1) -> "
                    "(%%r2)\n"
                    "  call.import @hal.command_buffer.create(%%r0, %%i6, "
                    "%%i7) -> (%%r3)\n"
                    "  const.i32 %%i8, 0\n  const.i32 %%i9, 1\n"
                    "^loop:\n"
                    "  cmp.lt.s.i32 %%i10, %%i8, %%i0\n"
                    "  br.cond %%i10, ^body, ^done\n"
                    "^body:\n"
                    "  call.import @hal.command_buffer.dispatch(%%r3, %%r2, "
                    "%%i1, %%i2, %%i3, %%i4, %%i7, %%i5",
                    (int)nl, name);
  for (size_t i = 0; i < binding_count; ++i) {
    kiln_ir_sb_printf(&out, ", %%i%zu, %%r%zu, %%l0, %%l%zu", 20 + i, 10 + i,
                      2 + i);
  }
  kiln_ir_sb_printf(&out,
                    ") -> ()\n"
                    "  call.import @hal.command_buffer.barrier(%%r3) -> ()\n"
                    "  add.i32 %%i8, %%i8, %%i9\n"
                    "  br ^loop\n"
                    "^done:\n"
                    "  call.import @hal.command_buffer.finalize(%%r3) -> ()\n"
                    "  const.ref.null %%r4\n"
                    "  call.import @hal.fence.create(%%r0) -> (%%r5)\n"
                    "  call.import @hal.device.queue.execute(%%r0, %%r4, "
                    "%%r5, %%r3, %%i7) -> ()\n"
                    "  call.import @hal.fence.await(%%l1, %%r5) -> (%%i11)\n"
                    "  br.cond %%i11, ^failed, ^ok\n"
                    "^failed:\n"
                    "  fail %%i11, \"dispatch benchmark: device work failed\"\n"
                    "^ok:\n"
                    "  ret\n"
                    "}\n");
  if (out.failed) {
    kiln_ir_sb_free(&out);
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  uint8_t* bytes = NULL;
  size_t length = 0;
  kiln_status_t status = kiln_vm_assemble(out.data, out.size, "<benchmark>",
                                          allocator, &bytes, &length);
  kiln_ir_sb_free(&out);
  if (status) {
    return kiln_status_annotate_f(
        status,
        "internal error: dispatch benchmark of '%.*s' does not "
        "assemble",
        (int)nl, name);
  }
  char path[4096];
  snprintf(path, sizeof(path), "%s/%.*s.kmod", o->dump_executable_benchmarks_to,
           (int)file_name_length, file_name);
  status = kiln_benchmark_write_file(path, bytes, length);
  kiln_allocator_free(allocator, bytes);
  return status;
}

// Writes the benchmark of every dispatch of |executable| (a vmvx executable
// has one; the native one has them all).
static kiln_status_t kiln_benchmark_dump_executable(
    const kiln_benchmark_options_t* o, kiln_ir_op_t* module,
    kiln_ir_op_t* executable, kiln_allocator_t allocator) {
  size_t nl;
  const char* name = kiln_ir_op_get_string_attr(executable, "sym_name", &nl);
  kiln_string_view_t sym = kiln_make_string_view(name, nl);
  kiln_ir_block_t* body = kiln_ir_module_body(module);
  for (kiln_ir_op_t* fn = body ? body->first_op : NULL; fn; fn = fn->next) {
    if (!kiln_ir_op_is(fn, "func.func") || kiln_ir_func_is_declaration(fn)) {
      continue;
    }
    for (kiln_ir_block_t* b = fn->regions[0].first_block; b; b = b->next) {
      for (kiln_ir_op_t* op = b->first_op; op; op = op->next) {
        if (!kiln_ir_op_is(op, KILN_DISPATCH_REGION_OP)) continue;
        const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, "executable");
        if (!a || a->kind != KILN_IR_ATTR_SYMBOL_REF ||
            !kiln_string_view_equal(a->symbol.root, sym)) {
          continue;
        }
        KILN_RETURN_IF_ERROR(
            kiln_benchmark_dump_dispatch(o, executable, op, allocator));
      }
    }
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// kiln_benchmark_apply
//===----------------------------------------------------------------------===//

kiln_status_t kiln_benchmark_apply(const kiln_benchmark_options_t* options,
                                   kiln_ir_context_t* context,
                                   kiln_ir_op_t* module, const char* asm_text,
                                   size_t asm_length,
                                   kiln_allocator_t allocator, char** out_text,
                                   size_t* out_length) {
  (void)context;
  *out_text = NULL;
  *out_length = 0;
  kiln_ir_block_t* body = kiln_ir_module_body(module);
  if (options->dump_executable_benchmarks_to) {
    mkdir(options->dump_executable_benchmarks_to, 0777);  // may exist
    for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
      if (!kiln_ir_op_is(op, "hal.executable")) continue;
      KILN_RETURN_IF_ERROR(
          kiln_benchmark_dump_executable(options, module, op, allocator));
    }
  }
  kiln_ir_string_builder_t rodata = {0};
  kiln_ir_string_builder_t funcs = {0};
  if (options->export_benchmark_funcs) {
    for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
      if (kiln_ir_op_is(op, "func.func") && !kiln_ir_func_is_declaration(op) &&
          kiln_benchmark_func_is_public(op)) {
        kiln_benchmark_entry_wrapper(options, op, &rodata, &funcs);
      }
    }
  }
  // Output: the module line, the imports the additions need, new rodata,
  // the original text (dispatches repeated), then the wrappers.
  kiln_ir_string_builder_t out = {0};
  const char* rest = asm_text;
  const char* first_eol = memchr(asm_text, '\n', asm_length);
  if (first_eol) {
    kiln_ir_sb_append(&out, asm_text, (size_t)(first_eol - asm_text + 1));
    rest = first_eol + 1;
  }
  size_t rest_length = asm_length - (size_t)(rest - asm_text);
  if (funcs.size || options->dispatch_repeat_count > 1) {
    kiln_benchmark_add_imports(&out, rest, rest_length);
  }
  if (rodata.size) kiln_ir_sb_append(&out, rodata.data, rodata.size);
  kiln_benchmark_repeat_dispatches(&out, rest, rest_length,
                                   options->dispatch_repeat_count);
  if (funcs.size) kiln_ir_sb_append(&out, funcs.data, funcs.size);
  kiln_ir_sb_free(&rodata);
  kiln_ir_sb_free(&funcs);
  if (out.failed) {
    kiln_ir_sb_free(&out);
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  kiln_status_t status =
      kiln_allocator_malloc(allocator, out.size + 1, (void**)out_text);
  if (!status) {
    memcpy(*out_text, out.data, out.size);
    (*out_text)[out.size] = 0;
    *out_length = out.size;
  }
  kiln_ir_sb_free(&out);
  return status;
}
