/** A success condition `result <op> <number>`, parsed strictly (no expression is evaluated). */
export interface SuccessCondition {
  op: '<' | '<=' | '>' | '>=' | '==' | '!=';
  threshold: number;
}

export class ConditionError extends Error {}

const SHAPE = /^\s*result\s*(<=|>=|==|!=|<|>)\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*$/;

/** Parses `result < 0.01`; anything else (another operand, two conditions, a function) is refused. */
export function parseCondition(text: string): SuccessCondition {
  const match = SHAPE.exec(text);
  if (!match) {
    throw new ConditionError(`success condition must be "result <op> <number>" with op one of < <= > >= == !=`);
  }
  const threshold = Number(match[2]);
  if (!Number.isFinite(threshold)) throw new ConditionError('success condition threshold must be a finite number');
  return { op: match[1] as SuccessCondition['op'], threshold };
}

/** Whether `value` meets the condition; NaN never does (a query dividing zero by zero measured nothing). */
export function meets(condition: SuccessCondition, value: number): boolean {
  if (Number.isNaN(value)) return false;
  const { op, threshold } = condition;
  switch (op) {
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '==':
      return value === threshold;
    case '!=':
      return value !== threshold;
  }
}
