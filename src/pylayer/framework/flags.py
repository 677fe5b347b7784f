"""Paddle's global flags: :func:`set_flags` and :func:`get_flags`.

pylayer knows every flag that Paddle 3.3.1's ``set_flags`` accepts, with
Paddle's default value (:data:`PADDLE_DEFAULTS`, read from Paddle 3.3.1's
``get_flags`` on a CPU build), so code that sets or reads one runs
unchanged. The flags tune Paddle's C++ runtime (allocators, CUDA, kernels,
logging), which pylayer does not have: setting one records the value, which
``get_flags`` returns, and changes nothing pylayer computes. A name Paddle
does not accept is a ``ValueError``, as in Paddle.

One flag more than Paddle 3.3.1 accepts: ``FLAGS_retain_grad_for_all_tensor``,
which code written for Paddle 2 sets in its tests. Its value ``False`` is how
pylayer (and Paddle 3) behave; ``True``, which would keep ``.grad`` on every
intermediate tensor, is refused with a ``ValueError`` that says to call
``retain_grads()`` on the tensors whose gradient is read.
"""
__all__ = ["set_flags", "get_flags"]

RETAIN_ALL_GRADS = "FLAGS_retain_grad_for_all_tensor"

PADDLE_DEFAULTS = {
    "FLAGS_accuracy_check_atol_bf16": 0.001, "FLAGS_accuracy_check_atol_fp16": 0.001,
    "FLAGS_accuracy_check_atol_fp32": 1e-06, "FLAGS_accuracy_check_rtol_bf16": 0.001,
    "FLAGS_accuracy_check_rtol_fp16": 0.001, "FLAGS_accuracy_check_rtol_fp32": 1e-06,
    "FLAGS_add_dependency_for_communication_op": True, "FLAGS_alignment_size": 256,
    "FLAGS_all_blocks_convert_trt": False, "FLAGS_alloc_fill_value": -1,
    "FLAGS_allocator_strategy": 'auto_growth', "FLAGS_allreduce_record_one_event": False,
    "FLAGS_ap_enable_classic_gemm_epilogue": False, "FLAGS_apply_pass_to_program": False,
    "FLAGS_async_fast_eager_deletion_mode": False, "FLAGS_async_trace_count": 5,
    "FLAGS_auto_free_cudagraph_allocations_on_launch": True,
    "FLAGS_auto_growth_chunk_size_in_mb": 0, "FLAGS_benchmark": False,
    "FLAGS_blha_use_fp32_qk_sum": False, "FLAGS_cache_inference_while_scope": False,
    "FLAGS_call_stack_level": 1, "FLAGS_check_cuda_error": False,
    "FLAGS_check_infer_symbolic": False, "FLAGS_check_nan_inf": False,
    "FLAGS_check_nan_inf_level": 0, "FLAGS_cinn_kernel_cache_save_path": '/tmp/cinn/',
    "FLAGS_communicator_is_sgd_optimizer": True, "FLAGS_communicator_max_merge_var_num": 20,
    "FLAGS_communicator_send_queue_size": 20, "FLAGS_comp_skip_default_ops": True,
    "FLAGS_convert_all_blocks": True, "FLAGS_cse_max_count": -1, "FLAGS_cublas_dir": '',
    "FLAGS_cublaslt_device_best_config": '', "FLAGS_cuda_cccl_dir": '',
    "FLAGS_cuda_core_int8_gemm": False, "FLAGS_cuda_dir": '', "FLAGS_cuda_graph_blacklist": '',
    "FLAGS_cuda_malloc_async_pool_memory_throttle_ratio": 0.8, "FLAGS_cudnn_dir": '',
    "FLAGS_cupti_dir": '', "FLAGS_cur_allocated_threshold_in_gb": 55, "FLAGS_curand_dir": '',
    "FLAGS_cusolver_dir": '', "FLAGS_cusparse_dir": '', "FLAGS_cusparselt_dir": '',
    "FLAGS_dataloader_use_file_descriptor": False, "FLAGS_deep_ep_comm_prealloc_in_mb": 0,
    "FLAGS_disable_dyshape_in_train": False, "FLAGS_disable_logging_op_attr_list": '',
    "FLAGS_dist_threadpool_size": 0, "FLAGS_dump_api_and_gradnode_python_stack_dir": '',
    "FLAGS_dump_api_python_stack_path": '', "FLAGS_dump_grad_node_forward_stack_path": '',
    "FLAGS_dump_vmm_allocation_info": False, "FLAGS_dygraph_debug": 0,
    "FLAGS_eager_communication_connection": False, "FLAGS_eager_delete_scope": True,
    "FLAGS_eager_delete_tensor_gb": 0.0, "FLAGS_einsum_opt": False,
    "FLAGS_enable_adjust_op_order": 0, "FLAGS_enable_all2all_use_fp16": False,
    "FLAGS_enable_ap": False, "FLAGS_enable_api_kernel_fallback": True,
    "FLAGS_enable_async_trace": False, "FLAGS_enable_auto_detect_gpu_topo": True,
    "FLAGS_enable_auto_growth_allocator_add_lock": False,
    "FLAGS_enable_auto_layout_pass": True, "FLAGS_enable_auto_layout_pass_in_inference": False,
    "FLAGS_enable_auto_parallel_align_mode": False, "FLAGS_enable_auto_rdma_trans": True,
    "FLAGS_enable_blaslt_global_search": False, "FLAGS_enable_cinn_accuracy_check": False,
    "FLAGS_enable_cinn_kernel_cache": False, "FLAGS_enable_collect_shape": False,
    "FLAGS_enable_compact_mem": False, "FLAGS_enable_cse_in_dy2st": True,
    "FLAGS_enable_custom_engine": '', "FLAGS_enable_dependency_builder_debug_info": False,
    "FLAGS_enable_dump_main_program": False, "FLAGS_enable_exit_when_partial_worker": False,
    "FLAGS_enable_fuse_parallel_matmul_pass": True, "FLAGS_enable_fusion_fallback": False,
    "FLAGS_enable_fusion_result_check": False, "FLAGS_enable_graph_multi_node_sampling": False,
    "FLAGS_enable_neighbor_list_use_uva": False, "FLAGS_enable_opt_get_features": False,
    "FLAGS_enable_pir_api": True, "FLAGS_enable_pir_in_executor": True,
    "FLAGS_enable_pir_in_executor_trace_run": False, "FLAGS_enable_pir_with_pt_in_dy2st": True,
    "FLAGS_enable_record_memory": False, "FLAGS_enable_sparse_inner_gather": False,
    "FLAGS_enable_tracker_all2all": False, "FLAGS_enable_unique_name": False,
    "FLAGS_executor_log_deps_every_microseconds": 0, "FLAGS_fast_eager_deletion_mode": True,
    "FLAGS_force_stride_compute_contig_out": False, "FLAGS_force_sync_ops": '',
    "FLAGS_fraction_of_cpu_memory_to_use": 1.0,
    "FLAGS_fraction_of_cuda_pinned_memory_to_use": 0.5,
    "FLAGS_fraction_of_gpu_memory_to_use": 0.92, "FLAGS_fuse_parameter_groups_size": 1,
    "FLAGS_fuse_parameter_memory_size": -1.0,
    "FLAGS_fused_multi_transformer_op_use_mbfmha": False, "FLAGS_get_host_by_name_time": 120,
    "FLAGS_gpu_allocator_retry_time": 10000, "FLAGS_gpu_memory_limit_mb": 0,
    "FLAGS_gpugraph_debug_gpu_memory": False, "FLAGS_gpugraph_dedup_pull_push_mode": 0,
    "FLAGS_gpugraph_enable_gpu_direct_access": False,
    "FLAGS_gpugraph_enable_hbm_table_collision_stat": False,
    "FLAGS_gpugraph_enable_print_op_debug": False,
    "FLAGS_gpugraph_enable_segment_merge_grads": False,
    "FLAGS_gpugraph_force_device_batch_num_equal": False,
    "FLAGS_gpugraph_hbm_table_load_factor": 0.75,
    "FLAGS_gpugraph_load_node_list_into_hbm": True,
    "FLAGS_gpugraph_merge_grads_segment_size": 128,
    "FLAGS_gpugraph_offload_gather_copy_maxsize": 16,
    "FLAGS_gpugraph_offload_param_extends": '.w_0_moment,.b_0_moment',
    "FLAGS_gpugraph_offload_param_stat": 0, "FLAGS_gpugraph_parallel_copyer_split_maxsize": 64,
    "FLAGS_gpugraph_parallel_stream_num": 8, "FLAGS_gpugraph_slot_feasign_max_num": 5,
    "FLAGS_gpugraph_sparse_table_storage_mode": 0, "FLAGS_gpugraph_storage_mode": 1,
    "FLAGS_graph_embedding_split_infer_mode": True, "FLAGS_graph_get_neighbor_id": False,
    "FLAGS_graph_load_in_parallel": False, "FLAGS_graph_metapath_split_opt": False,
    "FLAGS_graph_neighbor_size_percent": 1.0, "FLAGS_hml_dir": '', "FLAGS_host_trace_level": 1,
    "FLAGS_init_allocated_mem": False, "FLAGS_initial_cpu_memory_in_mb": 500,
    "FLAGS_initial_gpu_memory_in_mb": 0, "FLAGS_inner_op_parallelism": 0,
    "FLAGS_ir_inplace_kernel_blacklist": '', "FLAGS_jit_engine_type": 'Predictor',
    "FLAGS_lapack_dir": '', "FLAGS_large_pool_auto_growth_chunk_size_in_mb": 0,
    "FLAGS_large_pool_pre_alloc_in_mb": 0, "FLAGS_local_exe_sub_scope_limit": 256.0,
    "FLAGS_log_memory_stats": False, "FLAGS_logging_pir_py_code_dir": '',
    "FLAGS_logging_pir_py_code_dump_symbolic_dims": False,
    "FLAGS_logging_pir_py_code_int_tensor_element_limit": 2048,
    "FLAGS_logging_trunc_pir_py_code": True, "FLAGS_low_precision_op_list": 0,
    "FLAGS_manually_trans_conv_filter": False, "FLAGS_max_inplace_grad_add": 0,
    "FLAGS_max_reserved_threshold_in_gb": 70, "FLAGS_memory_fraction_of_eager_deletion": 1.0,
    "FLAGS_merge_all_horizontal_groups": False, "FLAGS_mkl_dir": '', "FLAGS_mklml_dir": '',
    "FLAGS_multi_block_attention_min_partition_size": 1024,
    "FLAGS_multi_node_sample_use_gpu_table": True, "FLAGS_multiple_of_cupti_buffer_size": 1,
    "FLAGS_native_compact": False, "FLAGS_nccl_dir": '',
    "FLAGS_new_executor_sequential_run": False, "FLAGS_new_executor_serial_run": False,
    "FLAGS_new_executor_static_build": False, "FLAGS_new_executor_use_cuda_graph": False,
    "FLAGS_new_executor_use_inplace": False, "FLAGS_new_executor_use_local_scope": True,
    "FLAGS_npu_storage_format": False, "FLAGS_nvidia_package_dir": '',
    "FLAGS_offload_inplace_tensor": True, "FLAGS_offload_retry_times": -1, "FLAGS_op_dir": '',
    "FLAGS_paddle_num_threads": 1, "FLAGS_parameters_persistent_mode_in_dy2st": False,
    "FLAGS_pinned_memory_as_cpu_backend": False, "FLAGS_pir_apply_inplace_pass": True,
    "FLAGS_pir_broadcast_tree_limit": 32,
    "FLAGS_pir_interpreter_record_stream_for_gc_cache": False, "FLAGS_prim_backward": False,
    "FLAGS_prim_check_ops": False, "FLAGS_prim_enable_dynamic": False,
    "FLAGS_prim_forward": False, "FLAGS_prim_forward_blacklist": '',
    "FLAGS_prim_skip_dynamic": True, "FLAGS_print_ir": False,
    "FLAGS_print_kernel_run_info": False, "FLAGS_print_offload_info": False,
    "FLAGS_print_sub_graph_dir": '', "FLAGS_query_dest_rank_by_multi_node": False,
    "FLAGS_reader_queue_speed_test_mode": False, "FLAGS_reallocate_gpu_memory_in_mb": 0,
    "FLAGS_record_alloc_event": False, "FLAGS_run_kp_kernel": False,
    "FLAGS_save_cf_stack_op": False, "FLAGS_save_static_runtime_data": False,
    "FLAGS_search_cache_max_number": 1000000, "FLAGS_set_to_1d": False,
    "FLAGS_share_tensor_for_grad_tensor_holder": False,
    "FLAGS_small_pool_auto_growth_chunk_size_in_mb": 0, "FLAGS_small_pool_pre_alloc_in_mb": 0,
    "FLAGS_small_pool_size_in_mb": 0, "FLAGS_sort_sum_gradient": False,
    "FLAGS_specialize_device_in_dy2st": False, "FLAGS_static_executor_perfstat_filepath": '',
    "FLAGS_static_runtime_data_save_path": './', "FLAGS_sync_after_alloc": False,
    "FLAGS_tcp_max_syn_backlog": 2048, "FLAGS_tcp_store_using_libuv": True,
    "FLAGS_tensor_md5_checksum_output_path": '', "FLAGS_tensor_md5_checksum_precision": 3,
    "FLAGS_tensor_md5_checksum_use_binary_format": False,
    "FLAGS_tensor_operants_mode": 'eager', "FLAGS_tensorrt_dir": '',
    "FLAGS_tracer_onednn_ops_off": '', "FLAGS_tracer_onednn_ops_on": '',
    "FLAGS_tracer_profile_fname": 'xxgperf', "FLAGS_trt_engine_serialized_path": './',
    "FLAGS_trt_ibuilder_cache": False, "FLAGS_trt_min_group_size": 3,
    "FLAGS_try_allocate": False, "FLAGS_use_accuracy_compatible_kernel": False,
    "FLAGS_use_auto_growth_pinned_allocator": False, "FLAGS_use_auto_growth_v2": False,
    "FLAGS_use_autotune": False, "FLAGS_use_cuda_malloc_async_allocator": False,
    "FLAGS_use_cuda_managed_memory": False, "FLAGS_use_default_stream": False,
    "FLAGS_use_legacy_gemm": False, "FLAGS_use_legacy_linear": False,
    "FLAGS_use_mkldnn": False, "FLAGS_use_onednn": False, "FLAGS_use_pinned_memory": True,
    "FLAGS_use_shm_cache": False, "FLAGS_use_stream_safe_cuda_allocator": True,
    "FLAGS_use_stride_compute_kernel": True, "FLAGS_use_stride_kernel": True,
    "FLAGS_use_system_allocator": False, "FLAGS_use_virtual_memory_auto_growth": False,
    "FLAGS_use_xqa_optim": False, "FLAGS_vmm_large_pool_min_growth_size_in_mb": 0,
    "FLAGS_vmm_large_pool_pre_alloc_in_mb": 0, "FLAGS_vmm_pre_alloc_in_mb": 0,
    "FLAGS_vmm_small_pool_min_growth_size_in_mb": 0, "FLAGS_vmm_small_pool_pre_alloc_in_mb": 0,
    "FLAGS_vmm_small_pool_size_in_mb": 1, "FLAGS_win_cuda_bin_dir": '',
}

_values = dict(PADDLE_DEFAULTS, **{RETAIN_ALL_GRADS: False})


def _checked(name, value):
    """``value`` in the type of the flag's default, or an error naming the flag."""
    default = _values[name]
    if isinstance(default, bool):
        ok = isinstance(value, bool) or (isinstance(value, int) and value in (0, 1))
        expected = "a bool"
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
        expected = "an int"
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        expected = "a number"
    else:
        ok, expected = isinstance(value, str), "a str"
    if not ok:
        raise TypeError(f"set_flags(): flag {name} takes {expected}, got {value!r}")
    value = type(default)(value)
    if name == RETAIN_ALL_GRADS and value:
        raise ValueError(f"set_flags(): {name}=True is not supported: pylayer keeps the "
                         f"gradient of a non-leaf tensor only when asked; call "
                         f"retain_grads() on each tensor whose .grad you read")
    return value


def _known(name, fn):
    if not isinstance(name, str):
        raise TypeError(f"{fn}(): flag names are strings, got {type(name).__name__}")
    if name not in _values:
        raise ValueError(f"{fn}(): {name!r} is not a flag Paddle lets {fn} reach; flag "
                         f"names look like 'FLAGS_check_nan_inf'")
    return name


def set_flags(flags):
    """Set Paddle flags from a dict ``{name: value}``; ``get_flags`` returns them.

    Every flag of Paddle 3.3.1's ``set_flags`` is accepted, with a value of
    its type (``TypeError`` otherwise), and recorded; none changes what
    pylayer computes. An unknown name is a ``ValueError``, as in Paddle. The
    dict is checked whole before any flag is set.

    >>> import pylayer as paddle
    >>> paddle.set_flags({"FLAGS_call_stack_level": 2})
    >>> paddle.get_flags("FLAGS_call_stack_level")
    {'FLAGS_call_stack_level': 2}
    >>> paddle.set_flags({"FLAGS_call_stack_level": 1})
    """
    if not isinstance(flags, dict):
        raise TypeError(f"set_flags(): argument 'flags' must be a dict of flag name to "
                        f"value, got {type(flags).__name__}")
    checked = {_known(name, "set_flags"): None for name in flags}
    for name, value in flags.items():
        checked[name] = _checked(name, value)
    _values.update(checked)


def get_flags(flags):
    """The values of Paddle flags, as a dict ``{name: value}``.

    ``flags`` is one name or a list or tuple of names. A flag never set has
    Paddle's default.

    >>> import pylayer as paddle
    >>> paddle.get_flags(["FLAGS_check_nan_inf", "FLAGS_eager_delete_tensor_gb"])
    {'FLAGS_check_nan_inf': False, 'FLAGS_eager_delete_tensor_gb': 0.0}
    """
    if isinstance(flags, str):
        flags = [flags]
    if not isinstance(flags, (list, tuple)):
        raise TypeError(f"get_flags(): argument 'flags' must be a flag name or a list or "
                        f"tuple of them, got {type(flags).__name__}")
    return {_known(name, "get_flags"): _values[name] for name in flags}
