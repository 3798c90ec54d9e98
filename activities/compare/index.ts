/** Activities of the compare group (exported to the worker): reference agreement and evaluator controls. */
export { compareWithReference, runEvaluatorControls } from './activity';
