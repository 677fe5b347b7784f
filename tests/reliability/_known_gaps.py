"""Hostile-input cases that still fail, each reported to the owner of the code.

The walker skips these; ``test_known_gaps_are_still_open`` checks that each still
fails, so a fixed one must be deleted here (then the walker checks it).
"""
KNOWN_GAPS = {
    # ---- core
    'pylayer.DType(name=None)':
        'accepted the hostile value and returned a DType',
    'pylayer.DType(name=a dict)':
        'accepted the hostile value and returned a DType',
    'pylayer.DType(name=an int)':
        'accepted the hostile value and returned a DType',
    'pylayer.DType(np_dtype=None)':
        'accepted the hostile value and returned a DType',
    'pylayer.DType(np_dtype=a dict)':
        'the message does not name the function (DType): "object of type \'int\' has no len()"',
    'pylayer.DType(np_dtype=a number as dtype)':
        'the message does not name the function (DType): "Cannot interpret \'3.5\' as a data type"',
    'pylayer.DType(np_dtype=an unknown dtype name)':
        'the message does not name the function (DType): "data type \'float17\' not understood"',
    'pylayer.Tensor(data=a complex array)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.Tensor(data=a dict)':
        "the message does not name the argument (data): 'expected a Tensor, numpy array, number or nested list of numbe",
    'pylayer.Tensor(data=a ragged nested list)':
        "the message does not name the function (Tensor): 'to_tensor: data must be a rectangular nested list of numbers",
    'pylayer.Tensor(data=a string)':
        "the message does not name the argument (data): 'expected a Tensor, numpy array, number or nested list of numbe",
    'pylayer.Tensor(data=an object array)':
        'the message does not name the function (Tensor): "float() argument must be a string or a real number, not \'obj',
    'pylayer.Tensor(dtype=a dict)':
        'the message does not name the function (Tensor): "unsupported dtype {\'a\': 1}"',
    'pylayer.Tensor(dtype=a number as dtype)':
        "the message does not name the function (Tensor): 'unsupported dtype 3.5'",
    'pylayer.Tensor(dtype=an unknown dtype name)':
        'the message does not name the function (Tensor): "unsupported dtype \'float17\'; expected one of [\'bool\', \'float',
    'pylayer._tensor.Tensor.astype(dtype=None)':
        "expected TypeError or ValueError, got AttributeError: 'NoneType' object has no attribute 'kind'",
    'pylayer._tensor.Tensor.astype(dtype=a dict)':
        'the message does not name the function (astype or Tensor): "unsupported dtype {\'a\': 1}"',
    'pylayer._tensor.Tensor.astype(dtype=a number as dtype)':
        "the message does not name the function (astype or Tensor): 'unsupported dtype 3.5'",
    'pylayer._tensor.Tensor.astype(dtype=an unknown dtype name)':
        'the message does not name the function (astype or Tensor): "unsupported dtype \'float17\'; expected one of [\'boo',
    'pylayer._tensor.Tensor.backward(a gradient of the wrong shape)':
        "the message does not name the argument (grad_tensor): 'backward: the gradient has shape [3], but the tensor it",
    'pylayer._tensor.Tensor.backward(grad_tensor=a complex array)':
        'accepted the hostile value and returned a NoneType',
    'pylayer._tensor.Tensor.backward(grad_tensor=an object array)':
        'the message does not name the function (backward or Tensor): "unsupported operand type(s) for *: \'object\' and ',
    'pylayer._tensor.Tensor.item(index=None)':
        'the message does not name the function (item or Tensor): "\'NoneType\' object cannot be interpreted as an intege',
    'pylayer._tensor.Tensor.item(index=a dict)':
        'the message does not name the function (item or Tensor): "\'dict\' object cannot be interpreted as an integer"',
    'pylayer._tensor.Tensor.item(index=a float)':
        'the message does not name the function (item or Tensor): "\'float\' object cannot be interpreted as an integer"',
    'pylayer._tensor.Tensor.item(index=a string)':
        'the message does not name the function (item or Tensor): "\'str\' object cannot be interpreted as an integer"',
    'pylayer._tensor.Tensor.register_hook(hook=None)':
        "the message does not name the argument (hook): 'register_hook expects a callable, got NoneType'",
    'pylayer._tensor.Tensor.register_hook(hook=a string)':
        "the message does not name the argument (hook): 'register_hook expects a callable, got str'",
    'pylayer._tensor.Tensor.register_hook(hook=an int)':
        "the message does not name the argument (hook): 'register_hook expects a callable, got int'",
    'pylayer.add(shapes that do not broadcast)':
        "the message does not name the function (add): 'operands could not be broadcast together with shapes (2,3) (4,)",
    'pylayer.assign(output=a dict)':
        "expected TypeError or ValueError, got AttributeError: 'dict' object has no attribute '_set_array_inplace'",
    'pylayer.assign(output=a string)':
        "expected TypeError or ValueError, got AttributeError: 'str' object has no attribute '_set_array_inplace'",
    'pylayer.assign(output=an int)':
        "expected TypeError or ValueError, got AttributeError: 'int' object has no attribute '_set_array_inplace'",
    'pylayer.cast(dtype=None)':
        "expected TypeError or ValueError, got AttributeError: 'NoneType' object has no attribute 'kind'",
    'pylayer.cast(dtype=a dict)':
        'the message does not name the function (cast): "unsupported dtype {\'a\': 1}"',
    'pylayer.cast(dtype=a number as dtype)':
        "the message does not name the function (cast): 'unsupported dtype 3.5'",
    'pylayer.cast(dtype=an unknown dtype name)':
        'the message does not name the function (cast): "unsupported dtype \'float17\'; expected one of [\'bool\', \'float16',
    'pylayer.divide(shapes that do not broadcast)':
        "the message does not name the function (divide): 'operands could not be broadcast together with shapes (2,3) (",
    'pylayer.expand(a shape it cannot broadcast to)':
        "the message does not name the function (expand): 'broadcast_to(): cannot broadcast shape [3] to [2, 4]'",
    'pylayer.expand(shape=None)':
        'the message does not name the function (expand): "broadcast_to(): argument \'shape\' must be a list or tuple of ',
    'pylayer.expand(shape=a dict)':
        'the message does not name the function (expand): "broadcast_to(): argument \'shape\' must be a list or tuple of ',
    'pylayer.expand(shape=a list holding a float)':
        'the message does not name the function (expand): "broadcast_to(): argument \'shape\' must hold ints, got float"',
    'pylayer.expand(shape=a list holding a string)':
        'the message does not name the function (expand): "broadcast_to(): argument \'shape\' must hold ints, got str"',
    'pylayer.expand(shape=a size below -1)':
        "the message does not name the function (expand): 'broadcast_to(): cannot broadcast shape [3] to [2, -3]'",
    'pylayer.expand(shape=a string)':
        'the message does not name the function (expand): "broadcast_to(): argument \'shape\' must be a list or tuple of ',
    'pylayer.expand(x=None)':
        'the message does not name the function (expand): "broadcast_to(): argument \'x\' (position 1) must be a Tensor o',
    'pylayer.expand(x=a complex array)':
        'the message does not name the function (expand): "broadcast_to(): argument \'x\' (position 1) could not be conve',
    'pylayer.expand(x=a dict)':
        'the message does not name the function (expand): "broadcast_to(): argument \'x\' (position 1) must be a Tensor o',
    'pylayer.expand(x=a ragged nested list)':
        'the message does not name the function (expand): "broadcast_to(): argument \'x\' (position 1) could not be conve',
    'pylayer.expand(x=a string)':
        'the message does not name the function (expand): "broadcast_to(): argument \'x\' (position 1) must be a Tensor o',
    'pylayer.expand(x=an object array)':
        'the message does not name the function (expand): "broadcast_to(): argument \'x\' (position 1) could not be conve',
    'pylayer.matmul(inner sizes that differ)':
        "the message does not name the argument (x or y): 'matmul(): shapes [2, 3] and [2, 2] do not match for a matrix",
    'pylayer.multiply(shapes that do not broadcast)':
        "the message does not name the function (multiply): 'operands could not be broadcast together with shapes (2,3)",
    'pylayer.nn.Parameter(data=a complex array)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.nn.Parameter(data=a dict)':
        "the message does not name the function (Parameter): 'expected a Tensor, numpy array, number or nested list of ",
    'pylayer.nn.Parameter(data=a ragged nested list)':
        "the message does not name the function (Parameter): 'to_tensor: data must be a rectangular nested list of numb",
    'pylayer.nn.Parameter(data=a string)':
        "the message does not name the function (Parameter): 'expected a Tensor, numpy array, number or nested list of ",
    'pylayer.nn.Parameter(data=an object array)':
        'the message does not name the function (Parameter): "float() argument must be a string or a real number, not \'',
    'pylayer.nn.Parameter(dtype=a dict)':
        'the message does not name the function (Parameter): "unsupported dtype {\'a\': 1}"',
    'pylayer.nn.Parameter(dtype=a number as dtype)':
        "the message does not name the function (Parameter): 'unsupported dtype 3.5'",
    'pylayer.nn.Parameter(dtype=an unknown dtype name)':
        'the message does not name the function (Parameter): "unsupported dtype \'float17\'; expected one of [\'bool\', \'fl',
    'pylayer.reshape(shape=a size below -1)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.scale(bias=None)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.scale(bias=a dict)':
        'the message does not name the function (scale): "unsupported operand type(s) for +: \'float\' and \'dict\'"',
    'pylayer.scale(bias=a string)':
        'the message does not name the function (scale): "ufunc \'add\' did not contain a loop with signature matching ty',
    'pylayer.scale(scale=None)':
        'the message does not name the function (scale): "unsupported operand type(s) for *: \'float\' and \'NoneType\'"',
    'pylayer.scale(scale=a dict)':
        'the message does not name the function (scale): "unsupported operand type(s) for *: \'float\' and \'dict\'"',
    'pylayer.scale(scale=a string)':
        'the message does not name the function (scale): "ufunc \'multiply\' did not contain a loop with signature matchi',
    'pylayer.subtract(shapes that do not broadcast)':
        "the message does not name the function (subtract): 'operands could not be broadcast together with shapes (2,3)",
    'pylayer.sum(dtype=a dict)':
        'the message does not name the function (sum): "unsupported dtype {\'a\': 1}"',
    'pylayer.sum(dtype=a number as dtype)':
        "the message does not name the function (sum): 'unsupported dtype 3.5'",
    'pylayer.sum(dtype=an unknown dtype name)':
        'the message does not name the function (sum): "unsupported dtype \'float17\'; expected one of [\'bool\', \'float16\'',
    'pylayer.transpose(perm=None)':
        'the message does not name the argument (perm): "transpose(): argument \'shape\' must be a list or tuple of ints,',
    'pylayer.transpose(perm=a dict)':
        'the message does not name the argument (perm): "transpose(): argument \'shape\' must be a list or tuple of ints,',
    'pylayer.transpose(perm=a string)':
        'the message does not name the argument (perm): "transpose(): argument \'shape\' must be a list or tuple of ints,',
    # ---- static
    'pylayer.static.Block(idx=None)':
        'accepted the hostile value and returned a Block',
    'pylayer.static.Block(idx=a dict)':
        'accepted the hostile value and returned a Block',
    'pylayer.static.Block(idx=a float)':
        'accepted the hostile value and returned a Block',
    'pylayer.static.Block(idx=a string)':
        'accepted the hostile value and returned a Block',
    'pylayer.static.Block(program=None)':
        'accepted the hostile value and returned a Block',
    'pylayer.static.Block(program=a string)':
        'accepted the hostile value and returned a Block',
    'pylayer.static.Block(program=an int)':
        'accepted the hostile value and returned a Block',
    'pylayer.static.Operator(block=None)':
        'accepted the hostile value and returned a Operator',
    'pylayer.static.Operator(block=a string)':
        'accepted the hostile value and returned a Operator',
    'pylayer.static.Operator(block=an int)':
        'accepted the hostile value and returned a Operator',
    'pylayer.static.Operator(fn=None)':
        'accepted the hostile value and returned a Operator',
    'pylayer.static.Operator(fn=a string)':
        'accepted the hostile value and returned a Operator',
    'pylayer.static.Operator(fn=an int)':
        'accepted the hostile value and returned a Operator',
    'pylayer.static.Operator(type=None)':
        'accepted the hostile value and returned a Operator',
    'pylayer.static.Operator(type=a dict)':
        'accepted the hostile value and returned a Operator',
    'pylayer.static.Operator(type=an int)':
        'accepted the hostile value and returned a Operator',
    'pylayer.static.Parameter(block=None)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(block=a string)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(block=an int)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(dtype=a dict)':
        'the message does not name the function (Parameter): "unsupported dtype {\'a\': 1}"',
    'pylayer.static.Parameter(dtype=a number as dtype)':
        "the message does not name the function (Parameter): 'unsupported dtype 3.5'",
    'pylayer.static.Parameter(dtype=an unknown dtype name)':
        'the message does not name the function (Parameter): "unsupported dtype \'float17\'; expected one of [\'bool\', \'fl',
    'pylayer.static.Parameter(name=None)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(name=a dict)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(name=an int)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(shape=None)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(shape=a dict)':
        'the message does not name the function (Parameter): "invalid literal for int() with base 10: \'a\'"',
    'pylayer.static.Parameter(shape=a huge shape)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(shape=a list holding a float)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(shape=a list holding a string)':
        'the message does not name the function (Parameter): "invalid literal for int() with base 10: \'a\'"',
    'pylayer.static.Parameter(shape=a negative size)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static.Parameter(shape=a string)':
        'the message does not name the function (Parameter): "invalid literal for int() with base 10: \'s\'"',
    'pylayer.static.Variable(block=None)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(block=a string)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(block=an int)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(dtype=a dict)':
        'the message does not name the function (Variable): "unsupported dtype {\'a\': 1}"',
    'pylayer.static.Variable(dtype=a number as dtype)':
        "the message does not name the function (Variable): 'unsupported dtype 3.5'",
    'pylayer.static.Variable(dtype=an unknown dtype name)':
        'the message does not name the function (Variable): "unsupported dtype \'float17\'; expected one of [\'bool\', \'flo',
    'pylayer.static.Variable(name=None)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(name=a dict)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(name=an int)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(shape=None)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(shape=a dict)':
        'the message does not name the function (Variable): "invalid literal for int() with base 10: \'a\'"',
    'pylayer.static.Variable(shape=a huge shape)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(shape=a list holding a float)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(shape=a list holding a string)':
        'the message does not name the function (Variable): "invalid literal for int() with base 10: \'a\'"',
    'pylayer.static.Variable(shape=a negative size)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static.Variable(shape=a string)':
        'the message does not name the function (Variable): "invalid literal for int() with base 10: \'s\'"',
    'pylayer.static._executor.Executor.run(fetch_list=a string)':
        'the message does not name the argument (fetch_list): "Executor.run: cannot fetch \'spam\': the program has no va',
    'pylayer.static._executor.Executor.run(fetch_list=an int)':
        'the message does not name the function (run or Executor): "\'int\' object is not iterable"',
    'pylayer.static._executor.Scope.find_var(name=None)':
        'accepted the hostile value and returned a NoneType',
    'pylayer.static._executor.Scope.find_var(name=a dict)':
        'the message does not name the function (find_var or Scope): "unhashable type: \'dict\'"',
    'pylayer.static._executor.Scope.find_var(name=an int)':
        'accepted the hostile value and returned a NoneType',
    'pylayer.static._executor.Scope.var(name=None)':
        'accepted the hostile value and returned a _ScopeVar',
    'pylayer.static._executor.Scope.var(name=a dict)':
        'the message does not name the function (var or Scope): "unhashable type: \'dict\'"',
    'pylayer.static._executor.Scope.var(name=an int)':
        'accepted the hostile value and returned a _ScopeVar',
    'pylayer.static._framework.Block.create_parameter(dtype=a dict)':
        'the message does not name the function (create_parameter or Block): "unsupported dtype {\'a\': 1}"',
    'pylayer.static._framework.Block.create_parameter(dtype=a number as dtype)':
        "the message does not name the function (create_parameter or Block): 'unsupported dtype 3.5'",
    'pylayer.static._framework.Block.create_parameter(dtype=an unknown dtype name)':
        'the message does not name the function (create_parameter or Block): "unsupported dtype \'float17\'; expected one',
    'pylayer.static._framework.Block.create_parameter(initializer=a function)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static._framework.Block.create_parameter(initializer=a string)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static._framework.Block.create_parameter(initializer=an int)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static._framework.Block.create_parameter(name=None)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static._framework.Block.create_parameter(name=a dict)':
        'the message does not name the function (create_parameter or Block): "unhashable type: \'dict\'"',
    'pylayer.static._framework.Block.create_parameter(name=an int)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static._framework.Block.create_parameter(shape=None)':
        'the message does not name the function (create_parameter or Block): "\'NoneType\' object is not iterable"',
    'pylayer.static._framework.Block.create_parameter(shape=a huge shape)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.static._framework.Block.create_var(dtype=a dict)':
        'the message does not name the function (create_var or Block): "unsupported dtype {\'a\': 1}"',
    'pylayer.static._framework.Block.create_var(dtype=a number as dtype)':
        "the message does not name the function (create_var or Block): 'unsupported dtype 3.5'",
    'pylayer.static._framework.Block.create_var(dtype=an unknown dtype name)':
        'the message does not name the function (create_var or Block): "unsupported dtype \'float17\'; expected one of [\'',
    'pylayer.static._framework.Block.create_var(shape=None)':
        'accepted the hostile value and returned a Variable',
    'pylayer.static._framework.Block.has_var(name=None)':
        'accepted the hostile value and returned a bool',
    'pylayer.static._framework.Block.has_var(name=a dict)':
        'the message does not name the function (has_var or Block): "unhashable type: \'dict\'"',
    'pylayer.static._framework.Block.has_var(name=an int)':
        'accepted the hostile value and returned a bool',
    'pylayer.static._framework.Block.var(name=None)':
        "the message does not name the function (var or Block): 'block 0 has no variable named None'",
    'pylayer.static._framework.Block.var(name=a dict)':
        'the message does not name the function (var or Block): "unhashable type: \'dict\'"',
    'pylayer.static._framework.Block.var(name=an int)':
        "the message does not name the function (var or Block): 'block 0 has no variable named 3'",
    'pylayer.static._framework.Program.block(index=None)':
        "the message does not name the function (block or Program): 'list indices must be integers or slices, not NoneT",
    'pylayer.static._framework.Program.block(index=a dict)':
        "the message does not name the function (block or Program): 'list indices must be integers or slices, not dict'",
    'pylayer.static._framework.Program.block(index=a float)':
        "the message does not name the function (block or Program): 'list indices must be integers or slices, not float",
    'pylayer.static._framework.Program.block(index=a string)':
        "the message does not name the function (block or Program): 'list indices must be integers or slices, not str'",
    'pylayer.static._framework.Variable.astype(dtype=None)':
        "expected TypeError or ValueError, got AttributeError: 'NoneType' object has no attribute 'kind'",
    'pylayer.static._framework.Variable.astype(dtype=a dict)':
        'the message does not name the function (astype or Variable): "unsupported dtype {\'a\': 1}"',
    'pylayer.static._framework.Variable.astype(dtype=a number as dtype)':
        "the message does not name the function (astype or Variable): 'unsupported dtype 3.5'",
    'pylayer.static._framework.Variable.astype(dtype=an unknown dtype name)':
        'the message does not name the function (astype or Variable): "unsupported dtype \'float17\'; expected one of [\'b',
    'pylayer.static.append_backward(parameter_list=a list holding a string)':
        'the message does not name the function (append_backward): "block 0 has no variable named \'spam\'"',
    'pylayer.static.append_backward(parameter_list=a string)':
        'the message does not name the function (append_backward): "block 0 has no variable named \'s\'"',
    'pylayer.static.append_backward(parameter_list=an int)':
        'the message does not name the function (append_backward): "\'int\' object is not iterable"',
    'pylayer.static.data(dtype=a dict)':
        'the message does not name the function (data): "unsupported dtype {\'a\': 1}"',
    'pylayer.static.data(dtype=a number as dtype)':
        "the message does not name the function (data): 'unsupported dtype 3.5'",
    'pylayer.static.data(dtype=an unknown dtype name)':
        'the message does not name the function (data): "unsupported dtype \'float17\'; expected one of [\'bool\', \'float16',
    'pylayer.static.nn.fc(activation=a dict)':
        'the message does not name the function (fc): "attribute name must be string, not \'dict\'"',
    'pylayer.static.nn.fc(activation=an int)':
        'the message does not name the function (fc): "attribute name must be string, not \'int\'"',
    'pylayer.static.nn.fc(size=a huge int)':
        'the message does not name the function (fc): "create_parameter(): argument \'shape\' asks for 138350580552821637',
    'pylayer.static.program_guard(main_program=None)':
        'accepted the hostile value and returned a _GeneratorContextManager',
    'pylayer.static.program_guard(main_program=a string)':
        'accepted the hostile value and returned a _GeneratorContextManager',
    'pylayer.static.program_guard(main_program=an int)':
        'accepted the hostile value and returned a _GeneratorContextManager',
    'pylayer.static.program_guard(startup_program=a string)':
        'accepted the hostile value and returned a _GeneratorContextManager',
    'pylayer.static.program_guard(startup_program=an int)':
        'accepted the hostile value and returned a _GeneratorContextManager',
    'pylayer.static.scope_guard(scope=None)':
        'accepted the hostile value and returned a _GeneratorContextManager',
    'pylayer.static.scope_guard(scope=a string)':
        'accepted the hostile value and returned a _GeneratorContextManager',
    'pylayer.static.scope_guard(scope=an int)':
        'accepted the hostile value and returned a _GeneratorContextManager',
    # ---- demo
    'pylayer.demo.MLP(classes=None)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(classes=a dict)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(classes=a float)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(classes=a huge int)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' asks for 4611686018427387904 ',
    'pylayer.demo.MLP(classes=a negative int)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(classes=a string)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(hidden=None)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(hidden=a dict)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(hidden=a float)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(hidden=a huge int)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' asks for 4611686018427387904 ',
    'pylayer.demo.MLP(hidden=a negative int)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(hidden=a string)':
        'the message does not name the function (MLP): "Linear(): argument \'out_features\' must be a non-negative int, g',
    'pylayer.demo.MLP(inputs=None)':
        'the message does not name the function (MLP): "Linear(): argument \'in_features\' must be a non-negative int, go',
    'pylayer.demo.MLP(inputs=a dict)':
        'the message does not name the function (MLP): "Linear(): argument \'in_features\' must be a non-negative int, go',
    'pylayer.demo.MLP(inputs=a float)':
        'the message does not name the function (MLP): "Linear(): argument \'in_features\' must be a non-negative int, go',
    'pylayer.demo.MLP(inputs=a huge int)':
        'the message does not name the function (MLP): "Linear(): argument \'in_features\' asks for 4611686018427387904 e',
    'pylayer.demo.MLP(inputs=a negative int)':
        'the message does not name the function (MLP): "Linear(): argument \'in_features\' must be a non-negative int, go',
    'pylayer.demo.MLP(inputs=a string)':
        'the message does not name the function (MLP): "Linear(): argument \'in_features\' must be a non-negative int, go',
    'pylayer.demo.main(a zero batch size)':
        "the message does not name the function (main): 'range() arg 3 must not be zero'",
    'pylayer.demo.main(batch_size=None)':
        'the message does not name the function (main): "\'NoneType\' object cannot be interpreted as an integer"',
    'pylayer.demo.main(batch_size=a dict)':
        'the message does not name the function (main): "\'dict\' object cannot be interpreted as an integer"',
    'pylayer.demo.main(batch_size=a float)':
        'the message does not name the function (main): "\'float\' object cannot be interpreted as an integer"',
    'pylayer.demo.main(batch_size=a huge int)':
        'accepted the hostile value and returned a int',
    'pylayer.demo.main(batch_size=a negative int)':
        'accepted the hostile value and returned a int',
    'pylayer.demo.main(batch_size=a string)':
        'the message does not name the function (main): "\'str\' object cannot be interpreted as an integer"',
    'pylayer.demo.main(epochs=None)':
        'the message does not name the function (main): "unsupported operand type(s) for +: \'NoneType\' and \'int\'"',
    'pylayer.demo.main(epochs=a dict)':
        'the message does not name the function (main): "unsupported operand type(s) for +: \'dict\' and \'int\'"',
    'pylayer.demo.main(epochs=a float)':
        'the message does not name the function (main): "\'float\' object cannot be interpreted as an integer"',
    'pylayer.demo.main(epochs=a negative int)':
        'expected TypeError or ValueError, got IndexError: list index out of range',
    'pylayer.demo.main(epochs=a string)':
        'the message does not name the function (main): \'can only concatenate str (not "int") to str\'',
    'pylayer.demo.make_spirals(classes=None)':
        'the message does not name the function (make_spirals): "\'NoneType\' object cannot be interpreted as an integer"',
    'pylayer.demo.make_spirals(classes=a dict)':
        'the message does not name the function (make_spirals): "\'dict\' object cannot be interpreted as an integer"',
    'pylayer.demo.make_spirals(classes=a float)':
        'the message does not name the function (make_spirals): "\'float\' object cannot be interpreted as an integer"',
    'pylayer.demo.make_spirals(classes=a huge int)':
        'expected TypeError or ValueError, got Hang: the call did not return within 2 s',
    'pylayer.demo.make_spirals(classes=a negative int)':
        "the message does not name the function (make_spirals): 'need at least one array to concatenate'",
    'pylayer.demo.make_spirals(classes=a string)':
        'the message does not name the function (make_spirals): "\'str\' object cannot be interpreted as an integer"',
    'pylayer.demo.make_spirals(points_per_class=None)':
        'the message does not name the function (make_spirals): "\'NoneType\' object cannot be interpreted as an integer"',
    'pylayer.demo.make_spirals(points_per_class=a dict)':
        'the message does not name the function (make_spirals): "\'dict\' object cannot be interpreted as an integer"',
    'pylayer.demo.make_spirals(points_per_class=a float)':
        'the message does not name the function (make_spirals): "\'float\' object cannot be interpreted as an integer"',
    'pylayer.demo.make_spirals(points_per_class=a huge int)':
        "the message does not name the function (make_spirals): 'array is too big; `arr.size * arr.dtype.itemsize` is l",
    'pylayer.demo.make_spirals(points_per_class=a negative int)':
        "the message does not name the function (make_spirals): 'Number of samples, -3, must be non-negative.'",
    'pylayer.demo.make_spirals(points_per_class=a string)':
        'the message does not name the function (make_spirals): "\'str\' object cannot be interpreted as an integer"',
    'pylayer.demo.make_spirals(seed=None)':
        'accepted the hostile value and returned a tuple',
    'pylayer.demo.make_spirals(seed=a dict)':
        'the message does not name the function (make_spirals): "SeedSequence expects int or sequence of ints for entro',
    'pylayer.demo.make_spirals(seed=a float)':
        "the message does not name the function (make_spirals): 'SeedSequence expects int or sequence of ints for entro",
    'pylayer.demo.make_spirals(seed=a string)':
        "the message does not name the function (make_spirals): 'SeedSequence expects int or sequence of ints for entro",
    # ---- lead-python
    'pylayer.autograd.backward(a gradient of the wrong shape)':
        "the message does not name the argument (grad_tensors): 'backward: the gradient has shape [3], but the tensor i",
    'pylayer.autograd.gradcheck(atol=None)':
        'the message does not name the function (gradcheck): "ufunc \'isfinite\' not supported for the input types, and t',
    'pylayer.autograd.gradcheck(atol=a dict)':
        'the message does not name the function (gradcheck): "ufunc \'isfinite\' not supported for the input types, and t',
    'pylayer.autograd.gradcheck(atol=a negative number)':
        'expected TypeError or ValueError, got GradcheckError: gradcheck failed for tanh: the gradient of output elemen',
    'pylayer.autograd.gradcheck(atol=a string)':
        'the message does not name the function (gradcheck): "ufunc \'isfinite\' not supported for the input types, and t',
    'pylayer.autograd.gradcheck(eps=None)':
        'the message does not name the function (gradcheck): "unsupported operand type(s) for +: \'float\' and \'NoneType\'',
    'pylayer.autograd.gradcheck(eps=a dict)':
        'the message does not name the function (gradcheck): "unsupported operand type(s) for +: \'float\' and \'dict\'"',
    'pylayer.autograd.gradcheck(eps=a negative number)':
        'expected TypeError or ValueError, got GradcheckError: gradcheck failed for tanh: the gradient of output elemen',
    'pylayer.autograd.gradcheck(eps=a string)':
        'the message does not name the function (gradcheck): "ufunc \'add\' did not contain a loop with signature matchin',
    'pylayer.autograd.gradcheck(func=None)':
        'the message does not name the function (gradcheck): "\'NoneType\' object is not callable"',
    'pylayer.autograd.gradcheck(func=a string)':
        'the message does not name the function (gradcheck): "\'str\' object is not callable"',
    'pylayer.autograd.gradcheck(func=an int)':
        'the message does not name the function (gradcheck): "\'int\' object is not callable"',
    'pylayer.autograd.gradcheck(inputs=None)':
        "the message does not name the argument (inputs): 'gradcheck: no input has stop_gradient=False, so there is not",
    'pylayer.autograd.gradcheck(inputs=a dict)':
        "the message does not name the argument (inputs): 'gradcheck: no input has stop_gradient=False, so there is not",
    'pylayer.autograd.gradcheck(inputs=a list holding a string)':
        "the message does not name the argument (inputs): 'gradcheck: no input has stop_gradient=False, so there is not",
    'pylayer.autograd.gradcheck(inputs=a string)':
        "the message does not name the argument (inputs): 'gradcheck: no input has stop_gradient=False, so there is not",
    'pylayer.autograd.gradcheck(rtol=None)':
        'the message does not name the function (gradcheck): "ufunc \'isfinite\' not supported for the input types, and t',
    'pylayer.autograd.gradcheck(rtol=a dict)':
        'the message does not name the function (gradcheck): "ufunc \'isfinite\' not supported for the input types, and t',
    'pylayer.autograd.gradcheck(rtol=a negative number)':
        'expected TypeError or ValueError, got GradcheckError: gradcheck failed for tanh: the gradient of output elemen',
    'pylayer.autograd.gradcheck(rtol=a string)':
        'the message does not name the function (gradcheck): "ufunc \'isfinite\' not supported for the input types, and t',
    'pylayer.autograd.gradgradcheck(eps=None)':
        'the message does not name the function (gradgradcheck): "unsupported operand type(s) for +: \'float\' and \'NoneT',
    'pylayer.autograd.gradgradcheck(eps=a dict)':
        'the message does not name the function (gradgradcheck): "unsupported operand type(s) for +: \'float\' and \'dict\'',
    'pylayer.autograd.gradgradcheck(eps=a negative number)':
        'expected TypeError or ValueError, got GradcheckError: gradcheck failed for gradient of tanh: the gradient of o',
    'pylayer.autograd.gradgradcheck(eps=a string)':
        'the message does not name the function (gradgradcheck): "ufunc \'add\' did not contain a loop with signature mat',
    'pylayer.autograd.gradgradcheck(func=None)':
        'the message does not name the function (gradgradcheck): "\'NoneType\' object is not callable"',
    'pylayer.autograd.gradgradcheck(func=a string)':
        'the message does not name the function (gradgradcheck): "\'str\' object is not callable"',
    'pylayer.autograd.gradgradcheck(func=an int)':
        'the message does not name the function (gradgradcheck): "\'int\' object is not callable"',
    'pylayer.autograd.gradgradcheck(grad_outputs=a dict)':
        'the message does not name the function (gradgradcheck): "grad(): argument \'grad_outputs\' item 0 must be a Tens',
    'pylayer.autograd.gradgradcheck(grad_outputs=a list holding a string)':
        'the message does not name the function (gradgradcheck): "grad(): argument \'grad_outputs\' item 0 must be a Tens',
    'pylayer.autograd.gradgradcheck(grad_outputs=a string)':
        'the message does not name the function (gradgradcheck): "grad(): argument \'grad_outputs\' has 4 entries, but th',
    'pylayer.autograd.gradgradcheck(inputs=None)':
        'the message does not name the function (gradgradcheck): "tanh(): argument \'x\' (position 1) must be a Tensor or',
    'pylayer.autograd.gradgradcheck(inputs=a dict)':
        'the message does not name the function (gradgradcheck): "tanh(): argument \'x\' (position 1) must be a Tensor or',
    'pylayer.autograd.gradgradcheck(inputs=a list holding a string)':
        'the message does not name the function (gradgradcheck): "tanh(): argument \'x\' (position 1) must be a Tensor or',
    'pylayer.autograd.gradgradcheck(inputs=a string)':
        'the message does not name the function (gradgradcheck): "tanh(): argument \'x\' (position 1) must be a Tensor or',
    'pylayer.grad(a gradient of the wrong shape)':
        "the message does not name the function (grad): 'backward: the gradient has shape [3], but the tensor it is for",
}
