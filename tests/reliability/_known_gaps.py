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
    'pylayer.Tensor(data=None)':
        'accepted the hostile value and returned a Tensor',
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
    'pylayer.nn.Parameter(data=None)':
        'accepted the hostile value and returned a Parameter',
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
    'pylayer.static.create_parameter(attr=a dict)':
        "the message does not name the function (create_parameter): 'a parameter attribute must be a ParamAttr, a name,",
    'pylayer.static.create_parameter(attr=a list)':
        "the message does not name the function (create_parameter): 'a parameter attribute must be a ParamAttr, a name,",
    'pylayer.static.create_parameter(attr=an int)':
        "the message does not name the function (create_parameter): 'a parameter attribute must be a ParamAttr, a name,",
    'pylayer.static.create_parameter(dtype=a dict)':
        'the message does not name the function (create_parameter): "unsupported dtype {\'a\': 1}"',
    'pylayer.static.create_parameter(dtype=a number as dtype)':
        "the message does not name the function (create_parameter): 'unsupported dtype 3.5'",
    'pylayer.static.create_parameter(dtype=an unknown dtype name)':
        'the message does not name the function (create_parameter): "unsupported dtype \'float17\'; expected one of [\'boo',
    'pylayer.static.create_parameter(shape=a huge shape)':
        'accepted the hostile value and returned a Parameter',
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
        "the message does not name the function (fc): 'array is too big; `arr.size * arr.dtype.itemsize` is larger than",
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
        "the message does not name the function (MLP): 'array is too big; `arr.size * arr.dtype.itemsize` is larger tha",
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
        "the message does not name the function (MLP): 'array is too big; `arr.size * arr.dtype.itemsize` is larger tha",
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
        "the message does not name the function (MLP): 'array is too big; `arr.size * arr.dtype.itemsize` is larger tha",
    'pylayer.demo.MLP(inputs=a negative int)':
        'the message does not name the function (MLP): "Linear(): argument \'in_features\' must be a non-negative int, go',
    'pylayer.demo.MLP(inputs=a string)':
        'the message does not name the function (MLP): "Linear(): argument \'in_features\' must be a non-negative int, go',
    'pylayer.demo.MLP.forward(x=None)':
        'the message does not name the function (forward or MLP or linear): "matmul(): argument \'x\' (position 1) must b',
    'pylayer.demo.MLP.forward(x=a bool tensor)':
        "the message does not name the function (forward or MLP or linear): 'matmul(): shapes [2, 3] and [2, 4] do not ",
    'pylayer.demo.MLP.forward(x=a complex array)':
        'the message does not name the function (forward or MLP or linear): "matmul(): argument \'x\' (position 1) could ',
    'pylayer.demo.MLP.forward(x=a dict)':
        'the message does not name the function (forward or MLP or linear): "matmul(): argument \'x\' (position 1) must b',
    'pylayer.demo.MLP.forward(x=a ragged nested list)':
        'the message does not name the function (forward or MLP or linear): "matmul(): argument \'x\' (position 1) could ',
    'pylayer.demo.MLP.forward(x=a string)':
        'the message does not name the function (forward or MLP or linear): "matmul(): argument \'x\' (position 1) must b',
    'pylayer.demo.MLP.forward(x=an integer tensor)':
        "the message does not name the function (forward or MLP or linear): 'matmul(): shapes [2, 3] and [2, 4] do not ",
    'pylayer.demo.MLP.forward(x=an object array)':
        'the message does not name the function (forward or MLP or linear): "matmul(): argument \'x\' (position 1) could ',
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
    # ---- mine
    'pylayer.create_parameter(attr=a dict)':
        "the message does not name the function (create_parameter): 'a parameter attribute must be a ParamAttr, a name,",
    'pylayer.create_parameter(attr=a list)':
        "the message does not name the function (create_parameter): 'a parameter attribute must be a ParamAttr, a name,",
    'pylayer.create_parameter(attr=an int)':
        "the message does not name the function (create_parameter): 'a parameter attribute must be a ParamAttr, a name,",
    'pylayer.create_parameter(dtype=a dict)':
        'the message does not name the function (create_parameter): "unsupported dtype {\'a\': 1}"',
    'pylayer.create_parameter(dtype=a number as dtype)':
        "the message does not name the function (create_parameter): 'unsupported dtype 3.5'",
    'pylayer.create_parameter(dtype=an unknown dtype name)':
        'the message does not name the function (create_parameter): "unsupported dtype \'float17\'; expected one of [\'boo',
    'pylayer.create_parameter(shape=a huge shape)':
        "the message does not name the function (create_parameter): 'array is too big; `arr.size * arr.dtype.itemsize` ",
    'pylayer.nn.ClipGradByGlobalNorm(group_name=None)':
        'accepted the hostile value and returned a ClipGradByGlobalNorm',
    'pylayer.nn.ClipGradByGlobalNorm(group_name=a dict)':
        'accepted the hostile value and returned a ClipGradByGlobalNorm',
    'pylayer.nn.ClipGradByGlobalNorm(group_name=an int)':
        'accepted the hostile value and returned a ClipGradByGlobalNorm',
    'pylayer.nn.ClipGradByValue(max=None)':
        'the message does not name the function (ClipGradByValue): "float() argument must be a string or a real number,',
    'pylayer.nn.ClipGradByValue(max=a dict)':
        'the message does not name the function (ClipGradByValue): "float() argument must be a string or a real number,',
    'pylayer.nn.ClipGradByValue(max=a string)':
        'the message does not name the function (ClipGradByValue): "could not convert string to float: \'spam\'"',
    'pylayer.nn.ClipGradByValue(min=a dict)':
        'the message does not name the function (ClipGradByValue): "float() argument must be a string or a real number,',
    'pylayer.nn.ClipGradByValue(min=a string)':
        'the message does not name the function (ClipGradByValue): "could not convert string to float: \'spam\'"',
    'pylayer.nn.CrossEntropyLoss(axis=None)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(axis=a dict)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(axis=a float)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(axis=a string)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(ignore_index=None)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(ignore_index=a dict)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(ignore_index=a float)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(ignore_index=a string)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(label_smoothing=None)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(label_smoothing=a dict)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(label_smoothing=a negative number)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(label_smoothing=a number above 1)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(label_smoothing=a string)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(weight=a complex array)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(weight=a dict)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(weight=a ragged nested list)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(weight=a string)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.CrossEntropyLoss(weight=an object array)':
        'accepted the hostile value and returned a CrossEntropyLoss',
    'pylayer.nn.Dropout(axis=a dict)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(axis=a float)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(axis=a list holding a string)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(axis=a string)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(axis=an axis out of range)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(mode=None)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(mode=an int)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(mode=an unknown reduction)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(p=None)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(p=a dict)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(p=a negative number)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(p=a number above 1)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Dropout(p=a string)':
        'accepted the hostile value and returned a Dropout',
    'pylayer.nn.Layer(dtype=a dict)':
        'accepted the hostile value and returned a Layer',
    'pylayer.nn.Layer(dtype=a number as dtype)':
        'accepted the hostile value and returned a Layer',
    'pylayer.nn.Layer(dtype=an unknown dtype name)':
        'accepted the hostile value and returned a Layer',
    'pylayer.nn.Layer(name_scope=a dict)':
        'the message does not name the function (Layer): "unhashable type: \'dict\'"',
    'pylayer.nn.Layer(name_scope=an int)':
        'accepted the hostile value and returned a Layer',
    'pylayer.nn.LeakyReLU(negative_slope=None)':
        'accepted the hostile value and returned a LeakyReLU',
    'pylayer.nn.LeakyReLU(negative_slope=a dict)':
        'accepted the hostile value and returned a LeakyReLU',
    'pylayer.nn.LeakyReLU(negative_slope=a string)':
        'accepted the hostile value and returned a LeakyReLU',
    'pylayer.nn.Linear(bias_attr=a dict)':
        "the message does not name the function (Linear): 'a parameter attribute must be a ParamAttr, a name, an Initia",
    'pylayer.nn.Linear(bias_attr=a list)':
        "the message does not name the function (Linear): 'a parameter attribute must be a ParamAttr, a name, an Initia",
    'pylayer.nn.Linear(bias_attr=an int)':
        "the message does not name the function (Linear): 'a parameter attribute must be a ParamAttr, a name, an Initia",
    'pylayer.nn.Linear(in_features=a huge int)':
        "the message does not name the function (Linear): 'array is too big; `arr.size * arr.dtype.itemsize` is larger ",
    'pylayer.nn.Linear(out_features=a huge int)':
        "the message does not name the function (Linear): 'array is too big; `arr.size * arr.dtype.itemsize` is larger ",
    'pylayer.nn.Linear(weight_attr=a dict)':
        "the message does not name the function (Linear): 'a parameter attribute must be a ParamAttr, a name, an Initia",
    'pylayer.nn.Linear(weight_attr=a list)':
        "the message does not name the function (Linear): 'a parameter attribute must be a ParamAttr, a name, an Initia",
    'pylayer.nn.Linear(weight_attr=an int)':
        "the message does not name the function (Linear): 'a parameter attribute must be a ParamAttr, a name, an Initia",
    'pylayer.nn.LogSoftmax(axis=None)':
        'accepted the hostile value and returned a LogSoftmax',
    'pylayer.nn.LogSoftmax(axis=a dict)':
        'accepted the hostile value and returned a LogSoftmax',
    'pylayer.nn.LogSoftmax(axis=a float)':
        'accepted the hostile value and returned a LogSoftmax',
    'pylayer.nn.LogSoftmax(axis=a string)':
        'accepted the hostile value and returned a LogSoftmax',
    'pylayer.nn.Sequential(layers=None)':
        'accepted the hostile value and returned a Sequential',
    'pylayer.nn.Sequential(layers=a function)':
        'the message does not name the function (Sequential): "add_sublayer(): argument \'sublayer\' must be a Layer, got',
    'pylayer.nn.Sequential(layers=a string)':
        'the message does not name the function (Sequential): "add_sublayer(): argument \'sublayer\' must be a Layer, got',
    'pylayer.nn.Sequential(layers=an int)':
        'the message does not name the function (Sequential): "add_sublayer(): argument \'sublayer\' must be a Layer, got',
    'pylayer.nn.Softmax(axis=None)':
        'accepted the hostile value and returned a Softmax',
    'pylayer.nn.Softmax(axis=a dict)':
        'accepted the hostile value and returned a Softmax',
    'pylayer.nn.Softmax(axis=a float)':
        'accepted the hostile value and returned a Softmax',
    'pylayer.nn.Softmax(axis=a string)':
        'accepted the hostile value and returned a Softmax',
    'pylayer.nn.common.Linear.forward(an input of the wrong width)':
        "the message does not name the function (forward or Linear or linear): 'matmul(): shapes [2, 4] and [3, 2] do n",
    'pylayer.nn.common.Linear.forward(input=None)':
        'the message does not name the function (forward or Linear or linear): "matmul(): argument \'x\' (position 1) mus',
    'pylayer.nn.common.Linear.forward(input=a bool tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.nn.common.Linear.forward(input=a complex array)':
        'the message does not name the function (forward or Linear or linear): "matmul(): argument \'x\' (position 1) cou',
    'pylayer.nn.common.Linear.forward(input=a dict)':
        'the message does not name the function (forward or Linear or linear): "matmul(): argument \'x\' (position 1) mus',
    'pylayer.nn.common.Linear.forward(input=a ragged nested list)':
        'the message does not name the function (forward or Linear or linear): "matmul(): argument \'x\' (position 1) cou',
    'pylayer.nn.common.Linear.forward(input=a string)':
        'the message does not name the function (forward or Linear or linear): "matmul(): argument \'x\' (position 1) mus',
    'pylayer.nn.common.Linear.forward(input=an integer tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.nn.common.Linear.forward(input=an object array)':
        'the message does not name the function (forward or Linear or linear): "matmul(): argument \'x\' (position 1) cou',
    'pylayer.nn.common.Sequential.forward(input=None)':
        'the message does not name the function (forward or Sequential or linear): "matmul(): argument \'x\' (position 1)',
    'pylayer.nn.common.Sequential.forward(input=a bool tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.nn.common.Sequential.forward(input=a complex array)':
        'the message does not name the function (forward or Sequential or linear): "matmul(): argument \'x\' (position 1)',
    'pylayer.nn.common.Sequential.forward(input=a dict)':
        'the message does not name the function (forward or Sequential or linear): "matmul(): argument \'x\' (position 1)',
    'pylayer.nn.common.Sequential.forward(input=a ragged nested list)':
        'the message does not name the function (forward or Sequential or linear): "matmul(): argument \'x\' (position 1)',
    'pylayer.nn.common.Sequential.forward(input=a string)':
        'the message does not name the function (forward or Sequential or linear): "matmul(): argument \'x\' (position 1)',
    'pylayer.nn.common.Sequential.forward(input=an integer tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.nn.common.Sequential.forward(input=an object array)':
        'the message does not name the function (forward or Sequential or linear): "matmul(): argument \'x\' (position 1)',
    'pylayer.nn.functional.cross_entropy(label_smoothing=None)':
        'the message does not name the function (cross_entropy): "\'<=\' not supported between instances of \'float\' and \'',
    'pylayer.nn.functional.cross_entropy(label_smoothing=a dict)':
        'the message does not name the function (cross_entropy): "\'<=\' not supported between instances of \'float\' and \'',
    'pylayer.nn.functional.cross_entropy(label_smoothing=a string)':
        'the message does not name the function (cross_entropy): "\'<=\' not supported between instances of \'float\' and \'',
    'pylayer.nn.functional.cross_entropy(weight=a dict)':
        'the message does not name the function (cross_entropy): "float() argument must be a string or a real number, n',
    'pylayer.nn.functional.cross_entropy(weight=a ragged nested list)':
        "the message does not name the function (cross_entropy): 'setting an array element with a sequence. The request",
    'pylayer.nn.functional.cross_entropy(weight=a string)':
        'the message does not name the function (cross_entropy): "could not convert string to float: \'spam\'"',
    'pylayer.nn.functional.cross_entropy(weight=an object array)':
        'the message does not name the function (cross_entropy): "float() argument must be a string or a real number, n',
    'pylayer.nn.functional.leaky_relu(negative_slope=None)':
        'the message does not name the function (leaky_relu): "unsupported operand type(s) for *: \'float\' and \'NoneType',
    'pylayer.nn.functional.leaky_relu(negative_slope=a dict)':
        'the message does not name the function (leaky_relu): "unsupported operand type(s) for *: \'float\' and \'dict\'"',
    'pylayer.nn.functional.leaky_relu(negative_slope=a string)':
        'the message does not name the function (leaky_relu): "ufunc \'multiply\' did not contain a loop with signature m',
    'pylayer.nn.functional.linear(a bias that does not fit)':
        "the message does not name the function (linear): 'operands could not be broadcast together with shapes (2,2) (",
    'pylayer.nn.functional.linear(a weight that does not fit x)':
        "the message does not name the function (linear): 'matmul(): shapes [2, 3] and [4, 2] do not match for a matrix",
    'pylayer.nn.functional.linear(bias=a complex array)':
        'the message does not name the function (linear): "add(): argument \'y\' (position 2) could not be converted to a',
    'pylayer.nn.functional.linear(bias=a dict)':
        'the message does not name the function (linear): "add(): argument \'y\' (position 2) must be a Tensor or a numbe',
    'pylayer.nn.functional.linear(bias=a ragged nested list)':
        'the message does not name the function (linear): "add(): argument \'y\' (position 2) could not be converted to a',
    'pylayer.nn.functional.linear(bias=a string)':
        'the message does not name the function (linear): "add(): argument \'y\' (position 2) must be a Tensor or a numbe',
    'pylayer.nn.functional.linear(bias=an object array)':
        'the message does not name the function (linear): "add(): argument \'y\' (position 2) could not be converted to a',
    'pylayer.nn.functional.linear(weight=None)':
        'the message does not name the function (linear): "matmul(): argument \'y\' (position 2) must be a Tensor or a nu',
    'pylayer.nn.functional.linear(weight=a bool tensor)':
        "the message does not name the function (linear): 'matmul(): shapes [2, 3] and [2, 3] do not match for a matrix",
    'pylayer.nn.functional.linear(weight=a complex array)':
        'the message does not name the function (linear): "matmul(): argument \'y\' (position 2) could not be converted t',
    'pylayer.nn.functional.linear(weight=a dict)':
        'the message does not name the function (linear): "matmul(): argument \'y\' (position 2) must be a Tensor or a nu',
    'pylayer.nn.functional.linear(weight=a ragged nested list)':
        'the message does not name the function (linear): "matmul(): argument \'y\' (position 2) could not be converted t',
    'pylayer.nn.functional.linear(weight=a string)':
        'the message does not name the function (linear): "matmul(): argument \'y\' (position 2) must be a Tensor or a nu',
    'pylayer.nn.functional.linear(weight=an integer tensor)':
        "the message does not name the function (linear): 'matmul(): shapes [2, 3] and [2, 3] do not match for a matrix",
    'pylayer.nn.functional.linear(weight=an object array)':
        'the message does not name the function (linear): "matmul(): argument \'y\' (position 2) could not be converted t',
    'pylayer.nn.functional.linear(x=None)':
        'the message does not name the function (linear): "matmul(): argument \'x\' (position 1) must be a Tensor or a nu',
    'pylayer.nn.functional.linear(x=a bool tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.nn.functional.linear(x=a complex array)':
        'the message does not name the function (linear): "matmul(): argument \'x\' (position 1) could not be converted t',
    'pylayer.nn.functional.linear(x=a dict)':
        'the message does not name the function (linear): "matmul(): argument \'x\' (position 1) must be a Tensor or a nu',
    'pylayer.nn.functional.linear(x=a ragged nested list)':
        'the message does not name the function (linear): "matmul(): argument \'x\' (position 1) could not be converted t',
    'pylayer.nn.functional.linear(x=a string)':
        'the message does not name the function (linear): "matmul(): argument \'x\' (position 1) must be a Tensor or a nu',
    'pylayer.nn.functional.linear(x=an integer tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.nn.functional.linear(x=an object array)':
        'the message does not name the function (linear): "matmul(): argument \'x\' (position 1) could not be converted t',
    'pylayer.nn.functional.log_softmax(dtype=a dict)':
        'the message does not name the function (log_softmax): "unsupported dtype {\'a\': 1}"',
    'pylayer.nn.functional.log_softmax(dtype=a number as dtype)':
        "the message does not name the function (log_softmax): 'unsupported dtype 3.5'",
    'pylayer.nn.functional.log_softmax(dtype=an unknown dtype name)':
        'the message does not name the function (log_softmax): "unsupported dtype \'float17\'; expected one of [\'bool\', \'',
    'pylayer.nn.functional.mse_loss(label=a bool tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.nn.functional.mse_loss(label=an integer tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.nn.functional.mse_loss(shapes that differ)':
        "the message does not name the function (mse_loss): 'operands could not be broadcast together with shapes (2,3)",
    'pylayer.nn.functional.softmax(dtype=a dict)':
        'the message does not name the function (softmax): "unsupported dtype {\'a\': 1}"',
    'pylayer.nn.functional.softmax(dtype=a number as dtype)':
        "the message does not name the function (softmax): 'unsupported dtype 3.5'",
    'pylayer.nn.functional.softmax(dtype=an unknown dtype name)':
        'the message does not name the function (softmax): "unsupported dtype \'float17\'; expected one of [\'bool\', \'floa',
    'pylayer.nn.initializer.Constant.generate(dtype=None)':
        'accepted the hostile value and returned a ndarray',
    'pylayer.nn.initializer.Constant.generate(dtype=a dict)':
        'the message does not name the function (generate or Constant): "unsupported dtype {\'a\': 1}"',
    'pylayer.nn.initializer.Constant.generate(dtype=a number as dtype)':
        "the message does not name the function (generate or Constant): 'unsupported dtype 3.5'",
    'pylayer.nn.initializer.Constant.generate(dtype=an unknown dtype name)':
        'the message does not name the function (generate or Constant): "unsupported dtype \'float17\'; expected one of [',
    'pylayer.nn.initializer.Constant.generate(shape=None)':
        "the message does not name the function (generate or Constant): 'Use () not None as shape arguments'",
    'pylayer.nn.initializer.Constant.generate(shape=a dict)':
        'the message does not name the function (generate or Constant): "expected a sequence of integers or a single in',
    'pylayer.nn.initializer.Constant.generate(shape=a huge shape)':
        "the message does not name the function (generate or Constant): 'array is too big; `arr.size * arr.dtype.itemsi",
    'pylayer.nn.initializer.Constant.generate(shape=a list holding a float)':
        'the message does not name the function (generate or Constant): "\'float\' object cannot be interpreted as an int',
    'pylayer.nn.initializer.Constant.generate(shape=a list holding a string)':
        'the message does not name the function (generate or Constant): "\'str\' object cannot be interpreted as an integ',
    'pylayer.nn.initializer.Constant.generate(shape=a negative size)':
        "the message does not name the function (generate or Constant): 'negative dimensions are not allowed'",
    'pylayer.nn.initializer.Constant.generate(shape=a string)':
        'the message does not name the function (generate or Constant): "\'str\' object cannot be interpreted as an integ',
    'pylayer.nn.initializer.Normal.generate(dtype=None)':
        'accepted the hostile value and returned a ndarray',
    'pylayer.nn.initializer.Normal.generate(dtype=a dict)':
        'the message does not name the function (generate or Normal): "unsupported dtype {\'a\': 1}"',
    'pylayer.nn.initializer.Normal.generate(dtype=a number as dtype)':
        "the message does not name the function (generate or Normal): 'unsupported dtype 3.5'",
    'pylayer.nn.initializer.Normal.generate(dtype=an unknown dtype name)':
        'the message does not name the function (generate or Normal): "unsupported dtype \'float17\'; expected one of [\'b',
    'pylayer.nn.initializer.Normal.generate(shape=None)':
        "expected TypeError or ValueError, got AttributeError: 'float' object has no attribute 'astype'",
    'pylayer.nn.initializer.Normal.generate(shape=a dict)':
        'the message does not name the function (generate or Normal): "expected a sequence of integers or a single inte',
    'pylayer.nn.initializer.Normal.generate(shape=a huge shape)':
        "the message does not name the function (generate or Normal): 'array is too big; `arr.size * arr.dtype.itemsize",
    'pylayer.nn.initializer.Normal.generate(shape=a list holding a float)':
        'the message does not name the function (generate or Normal): "\'float\' object cannot be interpreted as an integ',
    'pylayer.nn.initializer.Normal.generate(shape=a list holding a string)':
        'the message does not name the function (generate or Normal): "\'str\' object cannot be interpreted as an integer',
    'pylayer.nn.initializer.Normal.generate(shape=a negative size)':
        "the message does not name the function (generate or Normal): 'negative dimensions are not allowed'",
    'pylayer.nn.initializer.Normal.generate(shape=a string)':
        'the message does not name the function (generate or Normal): "\'str\' object cannot be interpreted as an integer',
    'pylayer.nn.initializer.Uniform.generate(dtype=None)':
        'accepted the hostile value and returned a ndarray',
    'pylayer.nn.initializer.Uniform.generate(dtype=a dict)':
        'the message does not name the function (generate or Uniform): "unsupported dtype {\'a\': 1}"',
    'pylayer.nn.initializer.Uniform.generate(dtype=a number as dtype)':
        "the message does not name the function (generate or Uniform): 'unsupported dtype 3.5'",
    'pylayer.nn.initializer.Uniform.generate(dtype=an unknown dtype name)':
        'the message does not name the function (generate or Uniform): "unsupported dtype \'float17\'; expected one of [\'',
    'pylayer.nn.initializer.Uniform.generate(shape=None)':
        "expected TypeError or ValueError, got AttributeError: 'float' object has no attribute 'astype'",
    'pylayer.nn.initializer.Uniform.generate(shape=a dict)':
        'the message does not name the function (generate or Uniform): "expected a sequence of integers or a single int',
    'pylayer.nn.initializer.Uniform.generate(shape=a huge shape)':
        "the message does not name the function (generate or Uniform): 'array is too big; `arr.size * arr.dtype.itemsiz",
    'pylayer.nn.initializer.Uniform.generate(shape=a list holding a float)':
        'the message does not name the function (generate or Uniform): "\'float\' object cannot be interpreted as an inte',
    'pylayer.nn.initializer.Uniform.generate(shape=a list holding a string)':
        'the message does not name the function (generate or Uniform): "\'str\' object cannot be interpreted as an intege',
    'pylayer.nn.initializer.Uniform.generate(shape=a negative size)':
        "the message does not name the function (generate or Uniform): 'negative dimensions are not allowed'",
    'pylayer.nn.initializer.Uniform.generate(shape=a string)':
        'the message does not name the function (generate or Uniform): "\'str\' object cannot be interpreted as an intege',
    'pylayer.nn.initializer.XavierUniform(fan_in=a float)':
        'accepted the hostile value and returned a XavierUniform',
    'pylayer.nn.initializer.XavierUniform(fan_in=a huge int)':
        'accepted the hostile value and returned a XavierUniform',
    'pylayer.nn.initializer.XavierUniform(fan_in=a negative int)':
        'accepted the hostile value and returned a XavierUniform',
    'pylayer.nn.initializer.XavierUniform(fan_out=a float)':
        'accepted the hostile value and returned a XavierUniform',
    'pylayer.nn.initializer.XavierUniform(fan_out=a huge int)':
        'accepted the hostile value and returned a XavierUniform',
    'pylayer.nn.initializer.XavierUniform(fan_out=a negative int)':
        'accepted the hostile value and returned a XavierUniform',
    'pylayer.nn.initializer.XavierUniform(gain=a negative number)':
        'accepted the hostile value and returned a XavierUniform',
    'pylayer.nn.initializer.XavierUniform.generate(dtype=None)':
        'accepted the hostile value and returned a ndarray',
    'pylayer.nn.initializer.XavierUniform.generate(dtype=a dict)':
        'the message does not name the function (generate or XavierUniform): "unsupported dtype {\'a\': 1}"',
    'pylayer.nn.initializer.XavierUniform.generate(dtype=a number as dtype)':
        "the message does not name the function (generate or XavierUniform): 'unsupported dtype 3.5'",
    'pylayer.nn.initializer.XavierUniform.generate(dtype=an unknown dtype name)':
        'the message does not name the function (generate or XavierUniform): "unsupported dtype \'float17\'; expected one',
    'pylayer.nn.initializer.XavierUniform.generate(shape=None)':
        'the message does not name the function (generate or XavierUniform): "\'NoneType\' object is not iterable"',
    'pylayer.nn.initializer.XavierUniform.generate(shape=a dict)':
        'the message does not name the function (generate or XavierUniform): "\'>\' not supported between instances of \'s',
    'pylayer.nn.initializer.XavierUniform.generate(shape=a huge shape)':
        "the message does not name the function (generate or XavierUniform): 'array is too big; `arr.size * arr.dtype.i",
    'pylayer.nn.initializer.XavierUniform.generate(shape=a list holding a float)':
        'the message does not name the function (generate or XavierUniform): "\'float\' object cannot be interpreted as a',
    'pylayer.nn.initializer.XavierUniform.generate(shape=a list holding a string)':
        'the message does not name the function (generate or XavierUniform): "unsupported operand type(s) for +: \'int\' ',
    'pylayer.nn.initializer.XavierUniform.generate(shape=a negative size)':
        "the message does not name the function (generate or XavierUniform): 'negative dimensions are not allowed'",
    'pylayer.nn.initializer.XavierUniform.generate(shape=a string)':
        'the message does not name the function (generate or XavierUniform): "ufunc \'multiply\' did not contain a loop w',
    'pylayer.nn.layer.Layer.add_parameter(name=None)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.nn.layer.Layer.add_parameter(name=a dict)':
        'the message does not name the function (add_parameter or Layer): "unhashable type: \'dict\'"',
    'pylayer.nn.layer.Layer.add_parameter(name=an int)':
        'accepted the hostile value and returned a Parameter',
    'pylayer.nn.layer.Layer.add_sublayer(name=None)':
        'accepted the hostile value and returned a ReLU',
    'pylayer.nn.layer.Layer.add_sublayer(name=a dict)':
        'accepted the hostile value and returned a ReLU',
    'pylayer.nn.layer.Layer.add_sublayer(name=an int)':
        'accepted the hostile value and returned a ReLU',
    'pylayer.nn.layer.Layer.create_parameter(attr=a dict)':
        "the message does not name the function (create_parameter or Layer): 'a parameter attribute must be a ParamAttr",
    'pylayer.nn.layer.Layer.create_parameter(attr=a list)':
        "the message does not name the function (create_parameter or Layer): 'a parameter attribute must be a ParamAttr",
    'pylayer.nn.layer.Layer.create_parameter(attr=an int)':
        "the message does not name the function (create_parameter or Layer): 'a parameter attribute must be a ParamAttr",
    'pylayer.nn.layer.Layer.create_parameter(dtype=a dict)':
        'the message does not name the function (create_parameter or Layer): "unsupported dtype {\'a\': 1}"',
    'pylayer.nn.layer.Layer.create_parameter(dtype=a number as dtype)':
        "the message does not name the function (create_parameter or Layer): 'unsupported dtype 3.5'",
    'pylayer.nn.layer.Layer.create_parameter(dtype=an unknown dtype name)':
        'the message does not name the function (create_parameter or Layer): "unsupported dtype \'float17\'; expected one',
    'pylayer.nn.layer.Layer.create_parameter(shape=a huge shape)':
        "the message does not name the function (create_parameter or Layer): 'array is too big; `arr.size * arr.dtype.i",
    'pylayer.nn.layer.Layer.load_dict(state_dict=None)':
        'the message does not name the function (load_dict or Layer): "argument of type \'NoneType\' is not iterable"',
    'pylayer.nn.layer.Layer.load_dict(state_dict=a list)':
        'accepted the hostile value and returned a tuple',
    'pylayer.nn.layer.Layer.load_dict(state_dict=a string)':
        'accepted the hostile value and returned a tuple',
    'pylayer.nn.layer.Layer.load_dict(state_dict=an int)':
        'the message does not name the function (load_dict or Layer): "argument of type \'int\' is not iterable"',
    'pylayer.nn.layer.Layer.named_buffers(prefix=None)':
        'accepted the hostile value and returned a generator',
    'pylayer.nn.layer.Layer.named_buffers(prefix=a dict)':
        'accepted the hostile value and returned a generator',
    'pylayer.nn.layer.Layer.named_buffers(prefix=an int)':
        'accepted the hostile value and returned a generator',
    'pylayer.nn.layer.Layer.named_parameters(prefix=None)':
        'accepted the hostile value and returned a generator',
    'pylayer.nn.layer.Layer.named_parameters(prefix=a dict)':
        'accepted the hostile value and returned a generator',
    'pylayer.nn.layer.Layer.named_parameters(prefix=an int)':
        'accepted the hostile value and returned a generator',
    'pylayer.nn.layer.Layer.named_sublayers(prefix=None)':
        'accepted the hostile value and returned a generator',
    'pylayer.nn.layer.Layer.named_sublayers(prefix=a dict)':
        'accepted the hostile value and returned a generator',
    'pylayer.nn.layer.Layer.named_sublayers(prefix=an int)':
        'accepted the hostile value and returned a generator',
    'pylayer.nn.layer.Layer.register_buffer(name=None)':
        'accepted the hostile value and returned a NoneType',
    'pylayer.nn.layer.Layer.register_buffer(name=a dict)':
        'the message does not name the function (register_buffer or Layer): "unhashable type: \'dict\'"',
    'pylayer.nn.layer.Layer.register_buffer(name=an int)':
        'accepted the hostile value and returned a NoneType',
    'pylayer.nn.layer.Layer.set_dict(state_dict=None)':
        'the message does not name the function (set_dict or Layer): "argument of type \'NoneType\' is not iterable"',
    'pylayer.nn.layer.Layer.set_dict(state_dict=a list)':
        'accepted the hostile value and returned a tuple',
    'pylayer.nn.layer.Layer.set_dict(state_dict=a string)':
        'accepted the hostile value and returned a tuple',
    'pylayer.nn.layer.Layer.set_dict(state_dict=an int)':
        'the message does not name the function (set_dict or Layer): "argument of type \'int\' is not iterable"',
    'pylayer.nn.layer.Layer.set_state_dict(state_dict=None)':
        'the message does not name the function (set_state_dict or Layer): "argument of type \'NoneType\' is not iterable',
    'pylayer.nn.layer.Layer.set_state_dict(state_dict=a list)':
        'accepted the hostile value and returned a tuple',
    'pylayer.nn.layer.Layer.set_state_dict(state_dict=a string)':
        'accepted the hostile value and returned a tuple',
    'pylayer.nn.layer.Layer.set_state_dict(state_dict=an int)':
        'the message does not name the function (set_state_dict or Layer): "argument of type \'int\' is not iterable"',
    'pylayer.nn.layer.Layer.state_dict(destination=None)':
        'accepted the hostile value and returned a OrderedDict',
    'pylayer.nn.layer.Layer.state_dict(destination=a list)':
        "the message does not name the function (state_dict or Layer): 'list indices must be integers or slices, not st",
    'pylayer.nn.layer.Layer.state_dict(destination=a string)':
        'the message does not name the function (state_dict or Layer): "\'str\' object does not support item assignment"',
    'pylayer.nn.layer.Layer.state_dict(destination=an int)':
        'the message does not name the function (state_dict or Layer): "\'int\' object does not support item assignment"',
    'pylayer.nn.layer.Layer.state_dict(structured_name_prefix=None)':
        "expected TypeError or ValueError, got AttributeError: 'NoneType' object has no attribute 'rstrip'",
    'pylayer.nn.layer.Layer.state_dict(structured_name_prefix=a dict)':
        "expected TypeError or ValueError, got AttributeError: 'dict' object has no attribute 'rstrip'",
    'pylayer.nn.layer.Layer.state_dict(structured_name_prefix=an int)':
        "expected TypeError or ValueError, got AttributeError: 'int' object has no attribute 'rstrip'",
    'pylayer.nn.loss.MSELoss.forward(label=a bool tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.nn.loss.MSELoss.forward(label=an integer tensor)':
        'accepted the hostile value and returned a Tensor',
    'pylayer.optimizer.Adam(parameters=an int)':
        'the message does not name the function (Adam): "\'int\' object is not iterable"',
    'pylayer.optimizer.Optimizer(parameters=an int)':
        'the message does not name the function (Optimizer): "\'int\' object is not iterable"',
    'pylayer.optimizer.SGD(parameters=an int)':
        'the message does not name the function (SGD): "\'int\' object is not iterable"',
    'pylayer.optimizer.optimizer.Optimizer.set_lr(value=None)':
        'the message does not name the function (set_lr or Optimizer): "SGD(): argument \'value\' must be a number, got N',
    'pylayer.optimizer.optimizer.Optimizer.set_lr(value=a dict)':
        'the message does not name the function (set_lr or Optimizer): "SGD(): argument \'value\' must be a number, got d',
    'pylayer.optimizer.optimizer.Optimizer.set_lr(value=a negative number)':
        'accepted the hostile value and returned a NoneType',
    'pylayer.optimizer.optimizer.Optimizer.set_lr(value=a string)':
        'the message does not name the function (set_lr or Optimizer): "SGD(): argument \'value\' must be a number, got s',
    'pylayer.optimizer.optimizer.Optimizer.set_state_dict(state_dict=None)':
        "expected TypeError or ValueError, got AttributeError: 'NoneType' object has no attribute 'get'",
    'pylayer.optimizer.optimizer.Optimizer.set_state_dict(state_dict=a list)':
        "expected TypeError or ValueError, got AttributeError: 'list' object has no attribute 'get'",
    'pylayer.optimizer.optimizer.Optimizer.set_state_dict(state_dict=a string)':
        "expected TypeError or ValueError, got AttributeError: 'str' object has no attribute 'get'",
    'pylayer.optimizer.optimizer.Optimizer.set_state_dict(state_dict=an int)':
        "expected TypeError or ValueError, got AttributeError: 'int' object has no attribute 'get'",
}
