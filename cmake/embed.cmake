# embed.cmake: turn a text file into a C array (used for reports/report.lua).
# cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" len)
math(EXPR nbytes "${len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
file(WRITE "${OUT}"
  "/* Generated from ${IN} by cmake/embed.cmake; do not edit. */\n"
  "const char ${NAME}[] = {${body} 0};\n"
  "const unsigned long ${NAME}_len = ${nbytes};\n")
