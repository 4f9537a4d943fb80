// The public API of kiln's VM: values, buffers, lists, the module interface,
// native modules, contexts, invocations and bytecode modules. Include this.
//
// Layering: the VM depends only on runtime/base. The assembler
// (runtime/vm/assembler.h, library kiln_vm_assembler) and the module writer
// (runtime/vm/bytecode_writer.h, library kiln_vm_bytecode_writer) are
// separate libraries used by tools and the compiler, never by the runtime.
#ifndef KILN_RUNTIME_VM_API_H_
#define KILN_RUNTIME_VM_API_H_

#include "runtime/vm/buffer.h"
#include "runtime/vm/bytecode_module.h"
#include "runtime/vm/context.h"
#include "runtime/vm/executable_ref.h"
#include "runtime/vm/list.h"
#include "runtime/vm/module.h"
#include "runtime/vm/native_module.h"
#include "runtime/vm/value.h"

#endif  // KILN_RUNTIME_VM_API_H_
