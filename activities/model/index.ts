/** Activities of the model group (exported to the worker). */
export { callModel } from './gateway';
