// The embedding API's per-call deadline: a call whose dispatch never ends
// fails with DEADLINE_EXCEEDED naming the function, on both devices, and the
// session still works and releases cleanly afterwards.
#include "runtime/session/session.h"

#include <string.h>

#include "runtime/testing/test.h"
#include "runtime/vm/assembler.h"

// @spin dispatches a vmvx workgroup that loops forever; @add1 is ordinary.
static const char kSpinModule[] =
    "module @spin\n"
    "import @hal.device.default : ->r\n"
    "import @hal.executable.create : rr->r\n"
    "import @hal.command_buffer.create : rii->r\n"
    "import @hal.command_buffer.dispatch : rriiiiii...->\n"
    "import @hal.command_buffer.finalize : r->\n"
    "import @hal.device.queue.execute : rrrri...->\n"
    "import @hal.fence.create : r->r\n"
    "import @hal.fence.await : I...->i\n"
    "executable @spin_exe : \"vmvx-bytecode\" {\n"
    "  entry @spin_entry workgroup 1 1 1\n"
    "module @spin_exe {\n"
    "func @spin_entry : rrriiiiii-> export {\n"
    "^L0:\n"
    "  br ^L0\n"
    "}\n"
    "}\n"
    "}\n"
    "func @spin : -> export {\n"
    "  const.i32 %i0, 0\n"
    "  const.i32 %i1, 1\n"
    "  const.i32 %i2, 2\n"
    "  const.i32 %i3, 3\n"
    "  const.i64 %l0, -1\n"
    "  call.import @hal.device.default() -> (%r0)\n"
    "  call.import @hal.command_buffer.create(%r0, %i2, %i3) -> (%r1)\n"
    "  executable.ref %r2, @spin_exe\n"
    "  call.import @hal.executable.create(%r0, %r2) -> (%r3)\n"
    "  call.import @hal.command_buffer.dispatch(%r1, %r3, %i0, %i1, %i1, %i1, "
    "%i0, %i0) -> ()\n"
    "  call.import @hal.command_buffer.finalize(%r1) -> ()\n"
    "  const.ref.null %r4\n"
    "  call.import @hal.fence.create(%r0) -> (%r5)\n"
    "  call.import @hal.device.queue.execute(%r0, %r4, %r5, %r1, %i0) -> ()\n"
    "  call.import @hal.fence.await(%l0, %r5) -> (%i4)\n"
    "  ret\n"
    "}\n"
    "func @add1 : i->i export {\n"
    "  const.i32 %i1, 1\n"
    "  add.i32 %i0, %i0, %i1\n"
    "  ret %i0\n"
    "}\n";

static void expect_spin_times_out(const char* device_uri) {
  kiln_allocator_t allocator = kiln_allocator_system();
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_vm_assemble(kSpinModule, strlen(kSpinModule), "spin",
                                  allocator, &bytes, &length));
  kiln_runtime_session_options_t options =
      kiln_runtime_session_options_default();
  options.device_uri = device_uri;
  kiln_runtime_session_t* session = NULL;
  KILN_ASSERT_OK(kiln_runtime_session_create(&options, allocator, &session));
  KILN_ASSERT_OK(kiln_runtime_session_load_module_memory(
      session, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_NONE));
  kiln_allocator_free(allocator, bytes);

  kiln_vm_function_t spin, add1;
  KILN_ASSERT_OK(kiln_runtime_session_lookup_function(session, "spin", &spin));
  KILN_ASSERT_OK(kiln_runtime_session_lookup_function(session, "add1", &add1));
  // 200 ms from now: the loop never ends, so only the deadline stops it.
  kiln_status_t status = kiln_runtime_session_call_with_deadline(
      session, spin, NULL, 0, NULL, 0, kiln_vm_now_ns() + 200 * 1000000ll);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_DEADLINE_EXCEEDED);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "while invoking 'spin.spin'");
  kiln_status_free(status);

  // The session is still usable, with and without a deadline.
  kiln_vm_value_t arg = kiln_vm_value_make_i32(41), result;
  KILN_EXPECT_OK(kiln_runtime_session_call_with_deadline(
      session, add1, &arg, 1, &result, 1, kiln_vm_now_ns() + 60000000000ll));
  KILN_EXPECT_EQ_INT(result.i32, 42);
  KILN_EXPECT_OK(kiln_runtime_session_call(session, add1, &arg, 1, &result, 1));
  KILN_EXPECT_EQ_INT(result.i32, 42);
  // Returns (the stopped dispatch released its worker and the queue).
  kiln_runtime_session_release(session);
}

KILN_TEST(deadline_stops_a_spinning_dispatch_on_local_sync) {
  expect_spin_times_out("local-sync");
}

KILN_TEST(deadline_stops_a_spinning_dispatch_on_local_task) {
  expect_spin_times_out("local-task");
}

// Two modules in one session: @twice imports @inc's export, so both run on
// the session's one device; lookups find either.
static const char kIncModule[] =
    "module @inc\n"
    "func @add1 : i->i export {\n"
    "  const.i32 %i1, 1\n"
    "  add.i32 %i0, %i0, %i1\n"
    "  ret %i0\n"
    "}\n";
static const char kTwiceModule[] =
    "module @twice\n"
    "import @inc.add1 : i->i\n"
    "func @add2 : i->i export {\n"
    "  call.import @inc.add1 (%i0) -> (%i1)\n"
    "  call.import @inc.add1 (%i1) -> (%i2)\n"
    "  ret %i2\n"
    "}\n";

static void load_assembled(kiln_runtime_session_t* session, const char* text,
                           kiln_status_t* out_status) {
  kiln_allocator_t allocator = kiln_allocator_system();
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_vm_assemble(text, strlen(text), "module", allocator,
                                  &bytes, &length));
  *out_status = kiln_runtime_session_load_module_memory(
      session, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_NONE);
  kiln_allocator_free(allocator, bytes);
}

static int32_t call_i32(kiln_runtime_session_t* session, const char* name,
                        int32_t value) {
  kiln_vm_function_t function;
  kiln_status_t status =
      kiln_runtime_session_lookup_function(session, name, &function);
  KILN_EXPECT_OK(status);
  if (status) return -1;
  kiln_vm_value_t arg = kiln_vm_value_make_i32(value), result;
  KILN_EXPECT_OK(
      kiln_runtime_session_call(session, function, &arg, 1, &result, 1));
  return result.i32;
}

KILN_TEST(later_modules_import_earlier_ones) {
  kiln_runtime_session_options_t options =
      kiln_runtime_session_options_default();
  options.device_uri = "local-sync";
  kiln_runtime_session_t* session = NULL;
  KILN_ASSERT_OK(
      kiln_runtime_session_create(&options, kiln_allocator_system(), &session));
  kiln_status_t status;
  // Linking @twice alone fails (its import is missing); the session stays
  // usable.
  load_assembled(session, kTwiceModule, &status);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_NOT_FOUND);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "inc.add1");
  kiln_status_free(status);
  KILN_EXPECT_EQ_INT(kiln_runtime_session_module_count(session), 0);

  load_assembled(session, kIncModule, &status);
  KILN_EXPECT_OK(status);
  KILN_EXPECT_EQ_INT(call_i32(session, "add1", 1), 2);
  load_assembled(session, kTwiceModule, &status);
  KILN_EXPECT_OK(status);
  KILN_EXPECT_EQ_INT(kiln_runtime_session_module_count(session), 2);
  KILN_EXPECT_EQ_INT(call_i32(session, "add2", 1), 3);
  KILN_EXPECT_EQ_INT(call_i32(session, "twice.add2", 5), 7);
  KILN_EXPECT_EQ_INT(call_i32(session, "inc.add1", 5), 6);
  KILN_EXPECT_EQ_INT(call_i32(session, "add1", 7), 8);

  // Names are unique; unknown functions list every module's exports.
  load_assembled(session, kIncModule, &status);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_ALREADY_EXISTS);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "named 'inc'");
  kiln_status_free(status);
  kiln_vm_function_t function;
  status = kiln_runtime_session_lookup_function(session, "add3", &function);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_NOT_FOUND);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "function 'add3' not found in modules 'inc', 'twice'; "
                       "exported functions: inc.add1, twice.add2");
  kiln_status_free(status);
  status = kiln_runtime_session_lookup_function(session, "inc.add2", &function);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "function 'inc.add2' not found in module 'inc'; "
                       "exported functions: add1");
  kiln_status_free(status);
  kiln_runtime_session_release(session);
}

KILN_TEST_MAIN(KILN_TEST_CASE(deadline_stops_a_spinning_dispatch_on_local_sync),
               KILN_TEST_CASE(deadline_stops_a_spinning_dispatch_on_local_task),
               KILN_TEST_CASE(later_modules_import_earlier_ones))
