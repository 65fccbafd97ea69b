/* tests.h: the list of unit tests (CMake reads it to register each one). */
#define TEST_LIST(X)                \
  X(units_parse)                    \
  X(units_reject)                   \
  X(units_format)                   \
  X(arch_schema)                    \
  X(arch_buffer_ports)              \
  X(arch_errors)                    \
  X(presets)                        \
  X(ytree_set_path)                 \
  X(zoo_cnn_totals)                 \
  X(zoo_transformer_totals)         \
  X(seed_conv_counts)               \
  X(workload_validation)            \
  X(engine_fold_by_hand)            \
  X(engine_memory_bound_by_hand)    \
  X(engine_roofline_invariants)     \
  X(engine_bandwidth_monotonic)     \
  X(engine_dram_capacity)           \
  X(engine_on_chip_activations)     \
  X(engine_deterministic_json)      \
  X(config_mutation_fuzz)           \
  X(nest_counts_match_reference)    \
  X(systolic_timing_by_hand)        \
  X(systolic_fold_floor)            \
  X(nest_counts_scalesim_gemm)      \
  X(level2_invariants)              \
  X(level2_bandwidth_starved)       \
  X(level2_buffer_monotonic)        \
  X(level2_not_worse_than_naive)    \
  X(level2_scalesim_fold_timing)    \
  X(level2_pipeline_by_hand)        \
  X(level2_flexible_dataflow)       \
  X(level2_tiles_fit)              \
  X(dram_timeline_by_hand)          \
  X(dram_streams)                   \
  X(dram_spec_errors)
