// libFuzzer target: a module image from disk is untrusted input. Loads it
// (the CRC is skipped, so that mutations reach the structure and the
// verifier; one input in eight, chosen by its last byte, is loaded with the
// CRC checks, so that the structure-CRC path reads mutated section tables
// and a weight's CRC is checked at its first use), then calls every export
// whose arguments are all scalars, with zeros, bounded: local-sync, a 64 MiB
// allocation limit and a 100 ms deadline per call. Any crash, hang, leak or
// sanitizer report is a bug.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "runtime/session/session.h"

// Scalar-only signatures, at most 8 arguments: "iIfF" characters.
static bool kiln_fuzz_scalar_args(kiln_string_view_t types,
                                  kiln_vm_value_t* args, size_t* out_count) {
  size_t count = 0;
  for (size_t i = 0; i < types.size; ++i) {
    if (count == 8) return false;
    switch (types.data[i]) {
      case 'i':
        args[count++] = kiln_vm_value_make_i32(0);
        break;
      case 'I':
        args[count++] = kiln_vm_value_make_i64(0);
        break;
      case 'f':
        args[count++] = kiln_vm_value_make_f32(0);
        break;
      case 'F':
        args[count++] = kiln_vm_value_make_f64(0);
        break;
      default:
        return false;
    }
  }
  *out_count = count;
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kiln_runtime_session_options_t options =
      kiln_runtime_session_options_default();
  options.device_uri = "local-sync";
  options.allocation_limit_bytes = 64 << 20;
  kiln_runtime_session_t* session = NULL;
  kiln_status_t status =
      kiln_runtime_session_create(&options, kiln_allocator_system(), &session);
  if (!status) {
    bool check_crc = size > 0 && (data[size - 1] & 7) == 0;
    status = kiln_runtime_session_load_module_memory(
        session, data, size,
        check_crc ? 0 : KILN_VM_BYTECODE_LOAD_FLAG_SKIP_CRC);
  }
  kiln_vm_module_t* module =
      status ? NULL : kiln_runtime_session_module(session);
  size_t export_count = module ? kiln_vm_module_function_count(
                                     module, KILN_VM_FUNCTION_LINKAGE_EXPORT)
                               : 0;
  for (size_t i = 0; i < export_count && i < 16; ++i) {
    kiln_vm_function_t function;
    if (kiln_vm_module_function_at(module, KILN_VM_FUNCTION_LINKAGE_EXPORT,
                                   (uint32_t)i, &function)) {
      break;
    }
    kiln_vm_value_t args[8];
    size_t arg_count = 0;
    kiln_string_view_t signature = kiln_vm_function_signature(&function);
    kiln_vm_signature_t parsed;
    kiln_status_t parse = kiln_vm_signature_parse(signature, &parsed);
    if (parse) {
      kiln_status_free(parse);
      continue;
    }
    if (parsed.variadic ||
        !kiln_fuzz_scalar_args(parsed.args, args, &arg_count) ||
        parsed.results.size > 8) {
      continue;
    }
    kiln_vm_value_t results[8];
    memset(results, 0, sizeof(results));
    kiln_status_t call = kiln_runtime_session_call_with_deadline(
        session, function, args, arg_count, results, parsed.results.size,
        kiln_vm_now_ns() + 100 * 1000000ll);
    if (!call) kiln_vm_values_release(results, parsed.results.size);
    kiln_status_free(call);
  }
  kiln_status_free(status);
  kiln_runtime_session_release(session);
  return 0;
}
