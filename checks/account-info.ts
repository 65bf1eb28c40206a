import { type PayloadRule } from './payload';
import { rulesIn } from './payload-rules';
import { address, legalAddress } from './account-info-address';
import {
  businessType,
  company,
  companyId,
  companyName,
  companyPhone,
  industry,
  industryName,
  legalName,
  naicsCode,
  taxId,
  taxInfo,
  taxType,
} from './account-info-company';
import { dateOfBirth, email, firstName, lastName, phone, user, userId } from './account-info-user';

/** Every account-information field rule, in the order of the spec's table. */
export const accountInfoFieldRules: readonly PayloadRule[] = rulesIn([
  user,
  userId,
  email,
  firstName,
  lastName,
  phone,
  dateOfBirth,
  company,
  companyId,
  companyName,
  address,
  legalName,
  legalAddress,
  businessType,
  taxInfo,
  taxType,
  taxId,
  industry,
  naicsCode,
  industryName,
  companyPhone,
]);
