import { sees, type Admitted } from '../contract/bearer.js'
import { apiErrors } from '../wire/errors.js'
import type { ApiRequest, Outcome, ServedCameras } from './plan.js'

/**
 * The operation's answer from the device's data: no operation at the path is a 404, another method a 405, a
 * camera outside the token's scope a 403 whether it exists or not (so a scoped token learns nothing of it),
 * then the camera and the line by their ids.
 */
export function lookUp (store: ServedCameras, admitted: Admitted, { method, operation, params }: ApiRequest): Outcome {
  if (operation === undefined) return refuse(apiErrors.routeNotFound())
  if (!operation.methods.includes(method)) return refuse(apiErrors.methodNotAllowed(method, operation.methods))
  const id = params.id as string
  if (!sees(admitted, id)) return refuse(apiErrors.cameraForbidden(id))
  const camera = store.camera(id)
  if (camera === undefined) return refuse(apiErrors.cameraNotFound(id))
  const lineId = params.line_id
  const body = lineId === undefined ? camera.listBody : camera.lineBody(lineId)
  if (body === undefined) return refuse(apiErrors.countingLineNotFound(id, lineId as string))
  return { kind: 'send', body }
}

function refuse (error: ReturnType<typeof apiErrors.routeNotFound>): Outcome {
  return { kind: 'refuse', error }
}
