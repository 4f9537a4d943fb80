// Bytecode verifier: run once per function at load so that the interpreter's
// hot loop needs no checks. It checks opcode validity, instruction
// boundaries, register indices against each bank's declared count, branch
// targets (inside the function, on instruction starts), indices of rodata,
// strings, functions, imports, executables and globals (with the global's
// bank matching the opcode's register bank), call/return register lists against
// signatures, and that the last instruction is a terminator (control never
// falls off the end).
#include <inttypes.h>
#include <stdlib.h>

#include "runtime/vm/bytecode_module_impl.h"

typedef struct kiln_vm_verifier_t {
  const kiln_vm_bytecode_module_t* module;
  const kiln_vm_bc_function_t* function;
  uint32_t pc;  // start of the instruction being checked
} kiln_vm_verifier_t;

#define KILN_VERIFY_ERROR(v, ...)                                  \
  kiln_status_annotate_f(                                          \
      kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, __VA_ARGS__), \
      "invalid module: in function '%.*s' at offset 0x%x",         \
      KILN_SV_ARG((v)->function->name), (v)->pc)

static kiln_status_t kiln_vm_verify_register(kiln_vm_verifier_t* v, int bank,
                                             uint32_t index) {
  if (bank < 0 || bank >= KILN_VM_BANK_COUNT) {
    return KILN_VERIFY_ERROR(v, "bad register bank %d", bank);
  }
  if (index >= v->function->regs[bank]) {
    return KILN_VERIFY_ERROR(v,
                             "register %%%c%u out of range (function has %u "
                             "%c registers)",
                             kiln_vm_bank_prefix(bank), index,
                             v->function->regs[bank],
                             kiln_vm_bank_prefix(bank));
  }
  return kiln_ok_status();
}

// Checks a register list against the type characters |types|; with
// |variadic| extra entries of any bank are allowed.
static kiln_status_t kiln_vm_verify_list(kiln_vm_verifier_t* v,
                                         const uint8_t* list,
                                         kiln_string_view_t types,
                                         bool variadic, const char* what,
                                         kiln_string_view_t callee) {
  uint32_t count = list[0];
  if (count < types.size || (!variadic && count != types.size)) {
    return KILN_VERIFY_ERROR(v, "%s of '%.*s': %u values, signature has %zu",
                             what, KILN_SV_ARG(callee), count, types.size);
  }
  for (uint32_t i = 0; i < types.size; ++i) {
    int bank = list[1 + 3 * i];
    if (bank != kiln_vm_bank_of_type_char(types.data[i])) {
      return KILN_VERIFY_ERROR(
          v, "%s %u of '%.*s' must be a %c register", what, i,
          KILN_SV_ARG(callee),
          kiln_vm_bank_prefix(kiln_vm_bank_of_type_char(types.data[i])));
    }
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_verify_function(
    const kiln_vm_bytecode_module_t* module, uint32_t ordinal) {
  const kiln_vm_bc_function_t* f = &module->functions[ordinal];
  kiln_vm_verifier_t verifier = {module, f, 0};
  kiln_vm_verifier_t* v = &verifier;
  const uint8_t* code = f->code;
  uint32_t length = f->code_length;
  kiln_allocator_t allocator = module->base.allocator;

  // starts[pc] = 1 at instruction starts; targets holds (pc, target) pairs.
  uint8_t* starts = NULL;
  uint32_t* targets = NULL;
  size_t target_count = 0, target_capacity = length / 2 + 2;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, length, (void**)&starts));
  kiln_status_t status = kiln_allocator_malloc(
      allocator, target_capacity * 2 * sizeof(uint32_t), (void**)&targets);
  if (status) {
    kiln_allocator_free(allocator, starts);
    return status;
  }

  uint32_t pc = 0, last_opcode = 0;
  while (!status && pc < length) {
    v->pc = pc;
    starts[pc] = 1;
    if (length - pc < 2) {
      status = KILN_VERIFY_ERROR(v, "truncated instruction");
      break;
    }
    uint32_t opcode = kiln_vm_rd16(code + pc);
    const kiln_vm_opcode_info_t* info = kiln_vm_opcode_info(opcode);
    if (!info) {
      status = KILN_VERIFY_ERROR(v, "invalid opcode %u", opcode);
      break;
    }
    uint32_t p = pc + 2;
    const uint8_t* lists[2] = {NULL, NULL};
    int list_index = 0;
    uint32_t callee = 0;
    for (const char* c = info->format; *c && !status; ++c) {
      uint32_t need = kiln_vm_operand_head_size(*c);
      if (length - p < need) {
        status =
            KILN_VERIFY_ERROR(v, "truncated %s instruction", info->mnemonic);
        break;
      }
      switch (*c) {
        case 'i':
        case 'l':
        case 'f':
        case 'd':
        case 'r':
          status = kiln_vm_verify_register(v, kiln_vm_bank_of_operand(*c),
                                           kiln_vm_rd16(code + p));
          break;
        case 'B': {
          uint32_t target = kiln_vm_rd32(code + p);
          targets[2 * target_count] = pc;
          targets[2 * target_count + 1] = target;
          ++target_count;
          break;
        }
        case 'E':
          if (kiln_vm_rd32(code + p) >= module->executable_count) {
            status = KILN_VERIFY_ERROR(
                v, "executable index %u out of range (%u executables)",
                kiln_vm_rd32(code + p), module->executable_count);
          }
          break;
        case 'G': {
          uint32_t global = kiln_vm_rd32(code + p);
          if (global >= module->global_count) {
            status = KILN_VERIFY_ERROR(
                v, "global index %u out of range (%u globals)", global,
                module->global_count);
            break;
          }
          // Every register operand of a global op has the global's bank.
          for (const char* r = info->format; *r; ++r) {
            int bank = kiln_vm_bank_of_operand(*r);
            if (bank >= 0 && (uint32_t)bank != module->globals[global].bank) {
              status = KILN_VERIFY_ERROR(
                  v, "%s used on global '%.*s' of bank %c", info->mnemonic,
                  KILN_SV_ARG(module->globals[global].name),
                  kiln_vm_bank_prefix((int)module->globals[global].bank));
              break;
            }
          }
          break;
        }
        case 'R':
          if (kiln_vm_rd32(code + p) >= module->rodata_count) {
            status =
                KILN_VERIFY_ERROR(v,
                                  "rodata index %u out of range (%u "
                                  "entries)",
                                  kiln_vm_rd32(code + p), module->rodata_count);
          }
          break;
        case 'S':
          if (kiln_vm_rd32(code + p) >= module->string_count) {
            status = KILN_VERIFY_ERROR(v, "string index %u out of range",
                                       kiln_vm_rd32(code + p));
          }
          break;
        case 'C':
          callee = kiln_vm_rd32(code + p);
          if (callee >= module->function_count) {
            status = KILN_VERIFY_ERROR(v,
                                       "function index %u out of range (%u "
                                       "functions)",
                                       callee, module->function_count);
          }
          break;
        case 'M':
          callee = kiln_vm_rd32(code + p);
          if (callee >= module->import_count) {
            status = KILN_VERIFY_ERROR(v,
                                       "import index %u out of range (%u "
                                       "imports)",
                                       callee, module->import_count);
          }
          break;
        case 'A': {
          uint32_t count = code[p];
          if ((length - p - 1) / 3 < count) {
            status = KILN_VERIFY_ERROR(v, "truncated register list");
            break;
          }
          for (uint32_t k = 0; k < count && !status; ++k) {
            status = kiln_vm_verify_register(
                v, code[p + 1 + 3 * k], kiln_vm_rd16(code + p + 2 + 3 * k));
          }
          if (list_index < 2) lists[list_index++] = code + p;
          need = 1 + 3 * count;
          break;
        }
        case 'W': {
          uint32_t count = kiln_vm_rd16(code + p);
          if ((length - p - 2) / 4 < count) {
            status = KILN_VERIFY_ERROR(v, "truncated branch table");
            break;
          }
          if (target_count + count > target_capacity) {
            target_capacity = target_count + count;
            status = kiln_allocator_realloc(
                allocator, target_capacity * 2 * sizeof(uint32_t),
                (void**)&targets);
            if (status) break;
          }
          for (uint32_t k = 0; k < count; ++k) {
            targets[2 * target_count] = pc;
            targets[2 * target_count + 1] = kiln_vm_rd32(code + p + 2 + 4 * k);
            ++target_count;
          }
          need = 2 + 4 * count;
          break;
        }
      }
      p += need;
    }
    if (status) break;
    // Signature checks of calls and returns.
    if (opcode == KILN_VM_OP_CALL) {
      const kiln_vm_bc_function_t* g = &module->functions[callee];
      status = kiln_vm_verify_list(v, lists[0], g->sig.args, false, "argument",
                                   g->name);
      if (!status) {
        status = kiln_vm_verify_list(v, lists[1], g->sig.results, false,
                                     "result", g->name);
      }
    } else if (opcode == KILN_VM_OP_CALL_IMPORT) {
      const kiln_vm_bc_import_t* g = &module->imports[callee];
      status = kiln_vm_verify_list(v, lists[0], g->sig.args, g->sig.variadic,
                                   "argument", g->name);
      if (!status) {
        status = kiln_vm_verify_list(v, lists[1], g->sig.results, false,
                                     "result", g->name);
      }
    } else if (opcode == KILN_VM_OP_RET) {
      status = kiln_vm_verify_list(v, lists[0], f->sig.results, false,
                                   "returned value", f->name);
    }
    last_opcode = opcode;
    pc = p;
  }
  if (!status && !kiln_vm_opcode_is_terminator(last_opcode)) {
    status = KILN_VERIFY_ERROR(v,
                               "control falls off the end of the function "
                               "(last instruction must be br, br.cond, "
                               "br.table, ret or fail)");
  }
  for (size_t i = 0; !status && i < target_count; ++i) {
    uint32_t target = targets[2 * i + 1];
    if (target >= length || !starts[target]) {
      v->pc = targets[2 * i];
      status = KILN_VERIFY_ERROR(v, "branch target 0x%x is %s", target,
                                 target >= length
                                     ? "outside the function"
                                     : "not the start of an instruction");
    }
  }
  kiln_allocator_free(allocator, starts);
  kiln_allocator_free(allocator, targets);
  return status;
}
