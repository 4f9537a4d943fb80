// Module globals: the GLOBALS section, global.* opcodes, per-context storage,
// verifier checks, concurrency and the "__init" export convention.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "runtime/base/crc32.h"
#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/bytecode_writer.h"
#include "runtime/vm/vm_test_util.h"

// One global per bank; set(...) stores, the getters load.
static const char* kBanks =
    "module @g\n"
    "global @gi : i32\n"
    "global @gl : i64\n"
    "global @gf : f32\n"
    "global @gd : f64\n"
    "global @gr : ref\n"
    "func @set : iIfF-> export {\n"
    "  global.store.i32 @gi, %i0\n"
    "  global.store.i64 @gl, %l0\n"
    "  global.store.f32 @gf, %f0\n"
    "  global.store.f64 @gd, %d0\n"
    "  ret\n}\n"
    "func @get : ->iIfF export {\n"
    "  global.load.i32 %i0, @gi\n"
    "  global.load.i64 %l0, @gl\n"
    "  global.load.f32 %f0, @gf\n"
    "  global.load.f64 %d0, @gd\n"
    "  ret %i0, %l0, %f0, %d0\n}\n"
    // set_ref(n): stores a new n-byte buffer; ref_length: its length or -1.
    "func @set_ref : I-> export {\n"
    "  buffer.alloc %r0, %l0\n"
    "  global.store.ref @gr, %r0\n"
    "  ret\n}\n"
    "func @clear_ref : -> export {\n"
    "  const.ref.null %r0\n"
    "  global.store.ref @gr, %r0\n"
    "  ret\n}\n"
    "func @ref_length : ->I export {\n"
    "  global.load.ref %r0, @gr\n"
    "  ref.is_null %i0, %r0\n"
    "  br.cond %i0, ^null, ^some\n"
    "^null:\n  const.i64 %l0, -1\n  ret %l0\n"
    "^some:\n  buffer.length %l0, %r0\n  ret %l0\n}\n"
    // lazy(n): stores a new n-byte buffer only if the global is null and
    // returns the length of the winner.
    "func @lazy : I->I export {\n"
    "  buffer.alloc %r0, %l0\n"
    "  global.store_if_null.ref %r1, @gr, %r0\n"
    "  buffer.length %l1, %r1\n"
    "  ret %l1\n}\n";

static kiln_vm_value_t i32v(int32_t v) {
  return kiln_vm_value_make_i32(v);
}
static kiln_vm_value_t i64v(int64_t v) {
  return kiln_vm_value_make_i64(v);
}

static int64_t call_i64(kiln_vm_test_env_t* env, const char* name,
                        const kiln_vm_value_t* args, size_t arg_count) {
  kiln_vm_value_t r[1];
  kiln_status_t status = kiln_vm_test_call(env, name, args, arg_count, r, 1);
  KILN_EXPECT_OK(status);
  return r[0].i64;
}

KILN_TEST(load_store_every_bank) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(kBanks, NULL, &env));
  // Zero-initialized.
  kiln_vm_value_t r[4];
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "get", NULL, 0, r, 4));
  KILN_EXPECT_EQ_INT(r[0].i32, 0);
  KILN_EXPECT_EQ_INT(r[1].i64, 0);
  KILN_EXPECT_TRUE(r[2].f32 == 0.0f);
  KILN_EXPECT_TRUE(r[3].f64 == 0.0);
  KILN_EXPECT_EQ_INT(call_i64(&env, "ref_length", NULL, 0), -1);
  kiln_vm_value_t args[4] = {i32v(-7), i64v(1ll << 40),
                             kiln_vm_value_make_f32(2.5f),
                             kiln_vm_value_make_f64(-0.125)};
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "set", args, 4, NULL, 0));
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "get", NULL, 0, r, 4));
  KILN_EXPECT_EQ_INT(r[0].i32, -7);
  KILN_EXPECT_EQ_INT(r[1].i64, 1ll << 40);
  KILN_EXPECT_TRUE(r[2].f32 == 2.5f);
  KILN_EXPECT_TRUE(r[3].f64 == -0.125);
  // Refs: stored, replaced (the old one released: LSan), cleared.
  kiln_vm_value_t n = i64v(24);
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "set_ref", &n, 1, NULL, 0));
  KILN_EXPECT_EQ_INT(call_i64(&env, "ref_length", NULL, 0), 24);
  n = i64v(8);
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "set_ref", &n, 1, NULL, 0));
  KILN_EXPECT_EQ_INT(call_i64(&env, "ref_length", NULL, 0), 8);
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "clear_ref", NULL, 0, NULL, 0));
  KILN_EXPECT_EQ_INT(call_i64(&env, "ref_length", NULL, 0), -1);
  // A ref left in a global is released with the context (LSan checks).
  n = i64v(16);
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "set_ref", &n, 1, NULL, 0));
  kiln_vm_test_teardown(&env);
}

KILN_TEST(store_if_null_keeps_the_first) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(kBanks, NULL, &env));
  kiln_vm_value_t n = i64v(32);
  KILN_EXPECT_EQ_INT(call_i64(&env, "lazy", &n, 1), 32);
  n = i64v(64);
  KILN_EXPECT_EQ_INT(call_i64(&env, "lazy", &n, 1), 32);  // first one won
  KILN_EXPECT_EQ_INT(call_i64(&env, "ref_length", NULL, 0), 32);
  kiln_vm_test_teardown(&env);
}

KILN_TEST(contexts_have_independent_globals) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(kBanks, NULL, &env));
  kiln_vm_context_t* other = NULL;
  KILN_ASSERT_OK(kiln_vm_context_create(env.instance, &env.module, 1,
                                        kiln_allocator_system(), &other));
  kiln_vm_value_t args[4] = {i32v(5), i64v(6), kiln_vm_value_make_f32(7),
                             kiln_vm_value_make_f64(8)};
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "set", args, 4, NULL, 0));
  kiln_vm_value_t n = i64v(40);
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "set_ref", &n, 1, NULL, 0));
  // The other context still sees zeros and null.
  kiln_vm_context_t* first = env.context;
  env.context = other;
  kiln_vm_value_t r[4];
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "get", NULL, 0, r, 4));
  KILN_EXPECT_EQ_INT(r[0].i32, 0);
  KILN_EXPECT_EQ_INT(r[1].i64, 0);
  KILN_EXPECT_EQ_INT(call_i64(&env, "ref_length", NULL, 0), -1);
  env.context = first;
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "get", NULL, 0, r, 4));
  KILN_EXPECT_EQ_INT(r[0].i32, 5);
  KILN_EXPECT_EQ_INT(call_i64(&env, "ref_length", NULL, 0), 40);
  kiln_vm_context_release(other);
  kiln_vm_test_teardown(&env);
}

//===----------------------------------------------------------------------===//
// Verifier and loader rejections
//===----------------------------------------------------------------------===//

static kiln_status_t load_text(const char* text) {
  kiln_vm_test_env_t env;
  kiln_status_t status = kiln_vm_test_load(text, &env);
  kiln_vm_test_teardown(&env);
  return status;
}

KILN_TEST(verifier_rejects_wrong_bank) {
  kiln_status_t status = load_text(
      "module @m\nglobal @g : i64\n"
      "func @f : -> {\n  global.load.i32 %i0, @g\n  ret\n}\n");
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "global.load.i32 used on global 'g' of bank l");
  kiln_status_free(status);
  status = load_text(
      "module @m\nglobal @g : i32\n"
      "func @f : -> {\n  global.store_if_null.ref %r0, @g, %r1\n  ret\n}\n");
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "of bank i");
  kiln_status_free(status);
}

// Patches the u32 global operand of the first global op of function 0.
KILN_TEST(verifier_rejects_bad_index) {
  const char* text =
      "module @m\nglobal @g : ref\n"
      "func @f : -> {\n  global.load.ref %r0, @g\n  ret\n}\n";
  kiln_allocator_t a = kiln_allocator_system();
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_vm_assemble(text, strlen(text), "t", a, &bytes, &length));
  // Find the instruction: opcode 268 followed by %r0 (u16 0) and index 0.
  size_t at = SIZE_MAX;
  for (size_t i = 0; i + 8 <= length; ++i) {
    if (kiln_vm_rd16(bytes + i) == KILN_VM_OP_GLOBAL_LOAD_REF &&
        kiln_vm_rd16(bytes + i + 2) == 0 && kiln_vm_rd32(bytes + i + 4) == 0) {
      at = i;
      break;
    }
  }
  KILN_ASSERT_TRUE(at != SIZE_MAX);
  uint32_t bad = 1;
  memcpy(bytes + at + 4, &bad, 4);
  kiln_vm_module_t* module = NULL;
  kiln_status_t status = kiln_vm_bytecode_module_load_memory(
      NULL, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_SKIP_CRC, a, &module);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "global index 1 out of range (1 globals)");
  kiln_status_free(status);
  kiln_allocator_free(a, bytes);
}

KILN_TEST(assembler_rejects_undefined_and_duplicate_globals) {
  kiln_status_t status = load_text(
      "module @m\nfunc @f : -> {\n  global.load.i32 %i0, @nope\n  ret\n}\n");
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "undefined global '@nope'");
  kiln_status_free(status);
  status = load_text("module @m\nglobal @g : i32\nglobal @g : f32\n");
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "duplicate global 'g'");
  kiln_status_free(status);
  status = load_text("module @m\nglobal @g : i8\n");
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "expected the global's");
  kiln_status_free(status);
}

//===----------------------------------------------------------------------===//
// Format
//===----------------------------------------------------------------------===//

KILN_TEST(writer_loader_round_trip) {
  kiln_allocator_t a = kiln_allocator_system();
  kiln_vm_bytecode_writer_t* w = NULL;
  KILN_ASSERT_OK(kiln_vm_bytecode_writer_create(a, &w));
  KILN_EXPECT_OK(
      kiln_vm_bytecode_writer_set_name(w, kiln_make_cstring_view("rt")));
  uint32_t g0 = 9, g1 = 9;
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_global(
      w, kiln_make_cstring_view("count"), KILN_VM_BANK_I64, &g0));
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_global(
      w, kiln_make_cstring_view("cache"), KILN_VM_BANK_REF, &g1));
  KILN_EXPECT_EQ_INT(g0, 0);
  KILN_EXPECT_EQ_INT(g1, 1);
  kiln_status_t status = kiln_vm_bytecode_writer_add_global(
      w, kiln_make_cstring_view("bad"), 5, NULL);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  kiln_status_free(status);
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_vm_bytecode_writer_finish(w, &bytes, &length));
  kiln_vm_bytecode_writer_destroy(w);
  // Globals need 1.1; without splat rodata (1.2) that is what is written.
  KILN_EXPECT_EQ_INT(kiln_vm_rd16(bytes + 10), 1);
  kiln_vm_module_t* module = NULL;
  KILN_ASSERT_OK(
      kiln_vm_bytecode_module_load_memory(NULL, bytes, length, 0, a, &module));
  KILN_EXPECT_EQ_INT(kiln_vm_bytecode_module_global_count(module), 2);
  kiln_string_view_t name;
  uint32_t bank = 0;
  KILN_EXPECT_OK(kiln_vm_bytecode_module_global_at(module, 1, &name, &bank));
  KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(name, "cache"));
  KILN_EXPECT_EQ_INT(bank, KILN_VM_BANK_REF);
  status = kiln_vm_bytecode_module_global_at(module, 2, &name, &bank);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_OUT_OF_RANGE);
  kiln_status_free(status);
  // The dump lists the globals and the section.
  char* text = NULL;
  size_t text_size = 0;
  FILE* f = open_memstream(&text, &text_size);
  KILN_EXPECT_OK(kiln_vm_bytecode_module_dump(module, f));
  fclose(f);
  KILN_EXPECT_CONTAINS(text, "global @count : i64\n");
  KILN_EXPECT_CONTAINS(text, "global @cache : ref\n");
  KILN_EXPECT_CONTAINS(text, "# section globals:");
  KILN_EXPECT_CONTAINS(text, "# format version 1.1");
  free(text);
  kiln_vm_module_release(module);

  // A bad bank in the file is a clean load error. The table is the last
  // section before the section table: find the entry {name, 4}.
  size_t at = SIZE_MAX;
  for (size_t i = KILN_VM_HEADER_SIZE; i + 12 <= length; i += 4) {
    if (kiln_vm_rd32(bytes + i) == 2 && kiln_vm_rd32(bytes + i + 8) == 1 &&
        kiln_vm_rd32(bytes + i + 16) == KILN_VM_BANK_REF) {
      at = i + 16;
      break;
    }
  }
  KILN_ASSERT_TRUE(at != SIZE_MAX);
  bytes[at] = 7;
  status = kiln_vm_bytecode_module_load_memory(
      NULL, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_SKIP_CRC, a, &module);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "global 1 'cache' has bad bank 7");
  kiln_status_free(status);
  kiln_allocator_free(a, bytes);
}

// A module without globals has no GLOBALS section, and a 1.0 header loads.
KILN_TEST(module_without_globals_loads_as_1_0) {
  const char* text =
      "module @old\nfunc @f : ->i export {\n"
      "  const.i32 %i0, 3\n  ret %i0\n}\n";
  kiln_allocator_t a = kiln_allocator_system();
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_vm_assemble(text, strlen(text), "t", a, &bytes, &length));
  uint16_t minor = 0;
  memcpy(bytes + 10, &minor, 2);
  memset(bytes + KILN_VM_HEADER_CRC_OFFSET, 0, 4);
  uint32_t crc = kiln_crc32(bytes, length);
  memcpy(bytes + KILN_VM_HEADER_CRC_OFFSET, &crc, 4);
  kiln_vm_module_t* module = NULL;
  KILN_ASSERT_OK(
      kiln_vm_bytecode_module_load_memory(NULL, bytes, length, 0, a, &module));
  KILN_EXPECT_EQ_INT(kiln_vm_bytecode_module_global_count(module), 0);
  char* dump = NULL;
  size_t dump_size = 0;
  FILE* f = open_memstream(&dump, &dump_size);
  KILN_EXPECT_OK(kiln_vm_bytecode_module_dump(module, f));
  fclose(f);
  KILN_EXPECT_TRUE(strstr(dump, "section globals") == NULL);
  KILN_EXPECT_CONTAINS(dump, "# format version 1.0");
  free(dump);
  kiln_vm_module_release(module);
  kiln_allocator_free(a, bytes);
}

KILN_TEST(disassembly_round_trips) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_load(kBanks, &env));
  char* dump = NULL;
  size_t dump_size = 0;
  FILE* f = open_memstream(&dump, &dump_size);
  KILN_EXPECT_OK(kiln_vm_bytecode_module_dump(env.module, f));
  fclose(f);
  KILN_EXPECT_CONTAINS(dump, "global.store.i64 @gl, %l0");
  KILN_EXPECT_CONTAINS(dump, "global.load.ref %r0, @gr");
  KILN_EXPECT_CONTAINS(dump, "global.store_if_null.ref %r1, @gr, %r0");
  // The disassembly assembles again to a module that loads and runs.
  kiln_vm_test_env_t again;
  kiln_status_t status = kiln_vm_test_setup(dump, NULL, &again);
  KILN_EXPECT_OK(status);
  if (!status) {
    kiln_vm_value_t n = i64v(12);
    KILN_EXPECT_EQ_INT(call_i64(&again, "lazy", &n, 1), 12);
  }
  kiln_vm_test_teardown(&again);
  free(dump);
  kiln_vm_test_teardown(&env);
}

//===----------------------------------------------------------------------===//
// __init
//===----------------------------------------------------------------------===//

KILN_TEST(init_runs_once_at_context_creation) {
  const char* text =
      "module @m\nglobal @count : i32\n"
      "func @__init : -> export {\n"
      "  global.load.i32 %i0, @count\n  const.i32 %i1, 41\n"
      "  add.i32 %i0, %i0, %i1\n  global.store.i32 @count, %i0\n  ret\n}\n"
      "func @count : ->I export {\n"
      "  global.load.i32 %i0, @count\n  ext.i32.i64.s %l0, %i0\n"
      "  ret %l0\n}\n";
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(text, NULL, &env));
  KILN_EXPECT_EQ_INT(call_i64(&env, "count", NULL, 0), 41);
  kiln_vm_test_teardown(&env);
}

KILN_TEST(init_failure_fails_context_creation) {
  const char* text =
      "module @m\nfunc @__init : -> export {\n"
      "  const.i32 %i0, 9\n  fail %i0, \"no weights\"\n}\n";
  kiln_vm_test_env_t env;
  kiln_status_t status = kiln_vm_test_setup(text, NULL, &env);
  KILN_EXPECT_TRUE(status != NULL);
  KILN_EXPECT_TRUE(env.context == NULL);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "no weights");
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "module 'm' initializer '__init' failed");
  kiln_status_free(status);
  kiln_vm_test_teardown(&env);
  status = kiln_vm_test_setup(
      "module @m\nfunc @__init : i-> export {\n  ret\n}\n", NULL, &env);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "exports '__init' with arguments");
  kiln_status_free(status);
  kiln_vm_test_teardown(&env);
}

//===----------------------------------------------------------------------===//
// Concurrency (run under TSan too)
//===----------------------------------------------------------------------===//

typedef struct worker_t {
  kiln_vm_test_env_t* env;
  int id;
  int failures;
} worker_t;

static void* worker(void* opaque) {
  worker_t* w = (worker_t*)opaque;
  for (int i = 0; i < 300; ++i) {
    kiln_vm_value_t args[4] = {i32v(w->id), i64v(w->id),
                               kiln_vm_value_make_f32((float)w->id),
                               kiln_vm_value_make_f64(w->id)};
    kiln_vm_value_t r[4];
    kiln_vm_value_t n = i64v(8 * (1 + (i + w->id) % 4));
    kiln_status_t status = kiln_vm_test_call(w->env, "set", args, 4, NULL, 0);
    if (!status) status = kiln_vm_test_call(w->env, "get", NULL, 0, r, 4);
    // Values are whole: a load sees some thread's store, never a mix.
    if (!status && (r[0].i32 < 0 || r[0].i32 >= 4 || r[1].i64 < 0 ||
                    r[1].i64 >= 4 || r[2].f32 < 0 || r[2].f32 >= 4)) {
      ++w->failures;
    }
    if (!status) {
      status = (i % 3 == 0)
                   ? kiln_vm_test_call(w->env, "clear_ref", NULL, 0, NULL, 0)
                   : kiln_vm_test_call(w->env, "set_ref", &n, 1, NULL, 0);
    }
    if (!status)
      status = kiln_vm_test_call(w->env, "ref_length", NULL, 0, r, 1);
    if (!status && r[0].i64 != -1 &&
        (r[0].i64 < 8 || r[0].i64 > 32 || r[0].i64 % 8)) {
      ++w->failures;
    }
    if (!status) status = kiln_vm_test_call(w->env, "lazy", &n, 1, r, 1);
    if (!status && (r[0].i64 < 8 || r[0].i64 > 32)) ++w->failures;
    if (status) {
      ++w->failures;
      kiln_status_free(status);
    }
  }
  return NULL;
}

KILN_TEST(concurrent_invocations_share_globals_safely) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(kBanks, NULL, &env));
  worker_t workers[4];
  pthread_t threads[4];
  for (int i = 0; i < 4; ++i) {
    workers[i] = (worker_t){&env, i, 0};
    pthread_create(&threads[i], NULL, worker, &workers[i]);
  }
  for (int i = 0; i < 4; ++i) {
    pthread_join(threads[i], NULL);
    KILN_EXPECT_EQ_INT(workers[i].failures, 0);
  }
  kiln_vm_test_teardown(&env);
}

KILN_TEST_MAIN(
    KILN_TEST_CASE(load_store_every_bank),
    KILN_TEST_CASE(store_if_null_keeps_the_first),
    KILN_TEST_CASE(contexts_have_independent_globals),
    KILN_TEST_CASE(verifier_rejects_wrong_bank),
    KILN_TEST_CASE(verifier_rejects_bad_index),
    KILN_TEST_CASE(assembler_rejects_undefined_and_duplicate_globals),
    KILN_TEST_CASE(writer_loader_round_trip),
    KILN_TEST_CASE(module_without_globals_loads_as_1_0),
    KILN_TEST_CASE(disassembly_round_trips),
    KILN_TEST_CASE(init_runs_once_at_context_creation),
    KILN_TEST_CASE(init_failure_fails_context_creation),
    KILN_TEST_CASE(concurrent_invocations_share_globals_safely))
