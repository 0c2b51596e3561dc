export { editDistance } from '../util/closest-name.js'
