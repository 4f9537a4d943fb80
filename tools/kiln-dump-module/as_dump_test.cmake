# Runs kiln-as-module then kiln-dump-module and checks the printed lines.
execute_process(COMMAND ${AS} ${INPUT} -o ${OUT} RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kiln-as-module failed: ${err}")
endif()
execute_process(COMMAND ${DUMP} ${OUT} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kiln-dump-module failed: ${err}")
endif()
foreach(expected
    "module @sample"
    "# format version 1.1"
    "# section rodata: offset"
    "# section globals: offset"
    "global @calls : i32"
    "global @cache : ref"
    "global.load.i32 %i1, @calls"
    "global.store.i32 @calls, %i1"
    "import @check.expect_eq : ii->"
    "rodata @weights align 128 : hex \"0000803f000000400000003f\""
    "rodata @greeting align 64 : hex \"6869\""
    "executable @dispatch : \"vmvx-bytecode\" {"
    "entry @dispatch_0 workgroup 64 2 1 local_memory 256 source \"model.mlir:12:3\""
    "module @dispatch_module {"
    "func @dispatch_0 : r-> export {"
    "executable @native : \"native-elf-x86_64\" {"
    "sha256 "
    "data hex \"7f454c460201\""
    "entry @kernel workgroup 8 1 1 local_memory 0 source \"model.mlir:20:1\""
    "func @add : ii->i export {  # registers i32=3 i64=0 f32=0 f64=0 ref=0"
    "attr \"iree.abi.model\" \"coarse-fences\""
    "attr \"iree.benchmark\" \"entry\""
    "add.i32 %i2, %i0, %i1"
    "ret %i2"
    "func @sum : i->i {  # registers i32=5"
    "br.cond %i3, ^L"
    "cmp.gt.s.i32 %i3, %i2, %i0"
    "export @sum_to = @sum"
    "attr \"iree.abi\" \"scalar\"")
  string(FIND "${out}" "${expected}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "missing in dump: ${expected}\n--- dump ---\n${out}")
  endif()
endforeach()
# Round trip: the dump re-assembles (the rodata shown is complete here).
file(WRITE ${OUT}.dump.vmasm "${out}")
execute_process(COMMAND ${AS} ${OUT}.dump.vmasm -o ${OUT}.2 RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "re-assembling the dump failed: ${err}")
endif()
# A bad module: one line, exit 1.
file(WRITE ${OUT}.bad "KILNMOD")
execute_process(COMMAND ${DUMP} ${OUT}.bad RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "invalid module")
  message(FATAL_ERROR "bad module not rejected: rc=${rc} ${err}")
endif()
