export { sweep } from './recovery';
