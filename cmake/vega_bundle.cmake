# vega_bundle.cmake: Debian's Vega 5 modules (libjs-vega) as one script to
# inline into a report page (docs/report.md, "Vega").  Debian ships Vega as
# its modules, each a UMD file that, loaded by a plain <script>, would set
# window.vega to its own exports; so each is wrapped here in a CommonJS shim
# (module, exports, and a require returning the modules wrapped before it),
# in dependency order, and the bundle ends as upstream's vega/index.js
# does: one namespace of every module's exports, the transforms registered
# in vega-dataflow's table.
#   cmake -DDIR=/usr/share/javascript/vega -DOUT=vega.js -P vega_bundle.cmake
set(mods util time format loader scale canvas scenegraph dataflow expression
    event-selector selection statistics functions runtime parser view encode
    transforms view-transforms)
set(js "/* Vega ${VERSION} (BSD-3-Clause, https://vega.github.io), from Debian's libjs-vega\n   modules in ${DIR}, bundled by dse's cmake/vega_bundle.cmake. */\n")
string(APPEND js "var vega = (function () {\nvar __m = {};\nfunction __req(n) { if (n === 'vega-selections') n = 'vega-selection'; if (!(n in __m)) throw new Error('vega bundle: ' + n + ' missing'); return __m[n]; }\n")
foreach(m ${mods})
  set(f "${DIR}/vega-${m}.min.js")
  if(NOT EXISTS "${f}")
    set(f "${DIR}/vega-${m}.js")
  endif()
  if(NOT EXISTS "${f}")
    message(FATAL_ERROR "vega_bundle: ${DIR}/vega-${m}.min.js not found (apt-get install libjs-vega)")
  endif()
  file(READ "${f}" body)
  # a source-map comment would point the browser at a file the page lacks
  string(REGEX REPLACE "//# sourceMappingURL=[^\n]*" "" body "${body}")
  string(APPEND js "(function (module, exports, require) {\n${body}\n;__m['vega-${m}'] = module.exports;\n})({exports: {}}, undefined, __req);\n")
endforeach()
# (each shim's exports is its module's: passed as module.exports below)
string(REPLACE "})({exports: {}}, undefined, __req);" "})(__mod = {exports: {}}, __mod.exports, __req);" js "${js}")
string(APPEND js "var __ns = {};\n")
foreach(m ${mods})
  string(APPEND js "Object.assign(__ns, __m['vega-${m}']);\n")
endforeach()
string(APPEND js "Object.assign(__m['vega-dataflow'].transforms, __m['vega-transforms'], __m['vega-view-transforms'], __m['vega-encode']);\n")
string(APPEND js "__ns.version = '${VERSION}';\nreturn __ns;\n})();\n")
string(REPLACE "var __m = {};" "var __m = {}, __mod;" js "${js}")
file(WRITE "${OUT}" "${js}")
